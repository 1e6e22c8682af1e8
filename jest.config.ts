import type { Config } from 'jest';
import { wireSuites } from './__tests__/helpers/wire-mongo/suites';

type ProjectConfig = Exclude<NonNullable<Config['projects']>[number], string>;

const shared: ProjectConfig = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  // Sources import `./x.js` (node16 resolution); under ts-jest those resolve to the `.ts` files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
};

/** Every test, on the embedded store (or on MongoDB for the end-to-end suites when MONGODB_URI is set). */
const main: ProjectConfig = { ...shared, displayName: 'embedded', testMatch: ['**/*.test.ts'] };

/**
 * Without MONGODB_URI: the MongoDB contract suite and the end-to-end suites a second time, through the real
 * driver against the wire test server (a standalone MongoDB stand-in, one per test file; see
 * __tests__/helpers/wire-mongo/). With MONGODB_URI the main project already runs them on that server.
 */
const wire: ProjectConfig = {
  ...shared,
  displayName: 'mongodb-wire',
  testMatch: wireSuites(__dirname).map((suite) => `<rootDir>/${suite}`),
  testEnvironment: '<rootDir>/__tests__/helpers/wire-mongo/environment.ts',
};

const config: Config = {
  testTimeout: 30_000,
  // On a 2-core machine Jest would run every file in the main process, whose heap then grows past Node's limit
  // over 500 files; with a limit, files run in a worker that is replaced once it holds more than this.
  workerIdleMemoryLimit: '1GB',
  // Says once per run whether the end-to-end suites run on MongoDB (MONGODB_URI) or the embedded store only.
  globalSetup: '<rootDir>/__tests__/helpers/backend-notice.ts',
  // JEST_EMBEDDED_ONLY: set by mutation testing (stryker.config.mjs), whose unit tests need no MongoDB.
  projects: process.env.MONGODB_URI || process.env.JEST_EMBEDDED_ONLY === 'true' ? [main] : [main, wire],
};

export default config;
