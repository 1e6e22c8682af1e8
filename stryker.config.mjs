// Mutation testing (StrykerJS) for the folders whose logic decides what a caller may see and what a query means.
// Not part of CI. `npm run mutate` (scripts/mutate.mjs) runs Stryker once per group of stryker.suites.mjs and
// merges the reports per folder. By hand: `MUTATE_FOLDER=query MUTATE_GROUP=3 npx stryker run` (one group), or
// `MUTATE_FOLDER=query npx stryker run --mutate src/query/order.ts` (the folder's test files, all of them).
import { SUITES, reportFile } from './stryker.suites.mjs';

const folder = process.env.MUTATE_FOLDER;
if (folder === undefined || !(folder in SUITES)) {
  throw new Error(`set MUTATE_FOLDER to one of ${Object.keys(SUITES).join(', ')} (or run npm run mutate)`);
}
const groupIndex = process.env.MUTATE_GROUP === undefined ? undefined : Number(process.env.MUTATE_GROUP);
const groups = SUITES[folder].groups;
if (groupIndex !== undefined && groups[groupIndex] === undefined) {
  throw new Error(`MUTATE_GROUP=${process.env.MUTATE_GROUP}: ${folder} has groups 0 to ${groups.length - 1}`);
}
const chosen = groupIndex === undefined ? groups : [groups[groupIndex]];
const tests = [...new Set(chosen.flatMap((group) => group.tests))];

// Unit tests need no MongoDB: jest.config.ts then leaves out the `mongodb-wire` project, which would run every
// mutant a second time. Stryker's test-runner processes inherit this.
process.env.JEST_EMBEDDED_ONLY = 'true';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.ts',
    config: { testMatch: tests.map((file) => `<rootDir>/${file}`) },
    enableFindRelatedTests: false,
  },
  coverageAnalysis: 'perTest',
  // Every test that kills a mutant is recorded (with Jest this costs nothing extra): the reports then say which tests pin what.
  disableBail: true,
  mutate: chosen.flatMap((group) => group.mutate),
  ignorePatterns: ['dist', 'reports', '.stryker-tmp', 'docker'],
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 1),
  timeoutMS: 20000,
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: reportFile(folder, groupIndex, 'html') },
  jsonReporter: { fileName: reportFile(folder, groupIndex, 'json') },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
