// Mutation testing (StrykerJS) for the folders whose logic decides what a caller may see and what a query means.
// Not part of CI. `npm run mutate` runs scripts/mutate.mjs, which runs Stryker once per folder below (one
// folder: `npm run mutate -- persisted`). Each folder is tested by the suites that drive it; running every
// suite per mutant would take hours on the shared 2-core machines, hence also concurrency 1.

/** Source folder → the test files that exercise it (globs under __tests__/). */
const suites = {
  persisted: { mutate: 'src/persisted/**/*.ts', tests: ['persisted/**/*.test.ts'] },
  // The unit-test files only: they reach every line of src/auth (the plugin called directly, fetchKeySet against
  // a local key server), and a mutant costs seconds with them instead of tens of seconds with the HTTP suites.
  auth: {
    mutate: 'src/auth/**/*.ts',
    tests: ['check-rules', 'claim-types', 'compile-rule', 'fetch-key-set', 'jwt-signature', 'jwt-verify', 'key-set', 'request-auth', 'role-rule', 'rule-document', 'scoped-has', 'token', 'type-rules']
      .map((name) => `auth/${name}.test.ts`),
  },
  query: {
    mutate: 'src/query/**/*.ts',
    tests: ['query/**/*.test.ts', 'api-e2e/filters.test.ts', 'api-e2e/relations-aggregates.test.ts', 'api-e2e/per-parent-pages.test.ts'],
  },
  mutations: {
    mutate: 'src/resolve/mutations/**/*.ts',
    tests: ['api-e2e/mutations.test.ts', 'api-e2e/symmetric-relations.test.ts', 'e2e/*.test.ts', 'safety/marker-type.test.ts'],
  },
};

const folder = process.env.MUTATE_FOLDER;
if (folder !== undefined && !(folder in suites)) {
  throw new Error(`MUTATE_FOLDER=${folder} is not one of ${Object.keys(suites).join(', ')}`);
}
const chosen = folder === undefined ? Object.values(suites) : [suites[folder]];
const reportName = folder ?? 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.ts',
    config: { testMatch: chosen.flatMap((suite) => suite.tests.map((glob) => `<rootDir>/__tests__/${glob}`)) },
    enableFindRelatedTests: false,
  },
  coverageAnalysis: 'perTest',
  mutate: [...chosen.map((suite) => suite.mutate), '!src/**/*.d.ts'],
  ignorePatterns: ['dist', 'reports', '.stryker-tmp', 'docker'],
  concurrency: 1,
  timeoutMS: 20000,
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
