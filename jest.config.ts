import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  // Sources import `./x.js` (node16 resolution); under ts-jest those resolve to the `.ts` files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 30_000,
  // Says once per run whether the end-to-end suites run on MongoDB (MONGODB_URI) or the embedded store only.
  globalSetup: '<rootDir>/__tests__/helpers/backend-notice.ts',
};

export default config;
