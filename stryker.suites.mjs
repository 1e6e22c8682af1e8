// Which test files kill the mutants of which source files, for mutation testing (stryker.config.mjs,
// scripts/mutate.mjs). Stryker's jest runner loads every listed test file for every mutant, so each group pairs a
// few source files with only the fast unit-test files that drive them: a mutant then costs about a second
// instead of the 10–30 s the HTTP suites cost. Every source file of a folder belongs to exactly one group
// (scripts/mutate.mjs refuses to run otherwise, so a new file cannot go unmutated).

/** A group: source files of `dir` mutated together, tested by `tests` (names under __tests__/, no `.test.ts`). */
function group(dir, files, tests) {
  return { mutate: files.map((file) => `${dir}/${file}.ts`), tests: tests.map((name) => `__tests__/${name}.test.ts`) };
}

const persisted = (files, tests) => group('src/persisted', files, tests.map((name) => `persisted/${name}`));
const query = (files, tests) => group('src/query', files, tests.map((name) => `query/${name}`));
const auth = (files, tests) => group('src/auth', files, tests.map((name) => `auth/${name}`));
const store = (files, tests) => group('src/store/embedded', files, tests.map((name) => `store/${name}`));

export const SUITES = {
  persisted: {
    dir: 'src/persisted',
    groups: [
      persisted(['admin', 'errors', 'request-kind', 'defaults', 'index'], ['admin', 'errors', 'request-kind']),
      persisted(['manifest'], ['manifest']),
      persisted(['plugin'], ['plugin', 'request-kind']),
      persisted(['cache'], ['cache', 'plugin', 'registration-cap']),
      persisted(['registration-cap', 'hash', 'trusted'], ['registration-cap', 'hash', 'trusted']),
    ],
  },
  auth: {
    dir: 'src/auth',
    groups: [
      auth(['token', 'request-auth', 'plugin'], ['token', 'request-auth']),
      auth(['compile-rule'], ['compile-rule']),
      auth(['type-rules'], ['type-rules', 'check-rules']),
      auth(['check-rules'], ['check-rules', 'type-rules']),
      auth(['keys/fetch-key-set', 'keys/freshness', 'keys/jwk', 'keys/remote-key-set'], ['key-set', 'fetch-key-set']),
      auth(['jwt/compact', 'jwt/errors', 'jwt/signature', 'jwt/verify', 'errors', 'keys/static-key'], ['jwt-signature', 'jwt-verify']),
      auth(['claim-types'], ['claim-types']),
      auth(['rule-document', 'role-rule', 'rule-values', 'index'], ['rule-document', 'role-rule', 'compile-rule']),
    ],
  },
  query: {
    dir: 'src/query',
    groups: [
      query(['relations'], ['relations', 'relation-loading']),
      query(['aggregate'], ['aggregate', 'relation-loading']),
      query(['cascade'], ['cascade']),
      query(['semi-join'], ['semi-join', 'cascade']),
      query(['relation-filter'], ['relation-filter', 'semi-join']),
      query(['order', 'pagination'], ['order-page']),
      query(['sort-compare'], ['sort-compare']),
      query(['combine'], ['combine']),
      query(['nulls-last'], ['nulls-last']),
      query(['schema-facts'], ['schema-facts']),
      query(['union-filter'], ['union-filter']),
      query(['filter'], ['filter', 'filter-plan']),
      query(['operators'], ['operators', 'filter']),
      query(['regexp'], ['regexp']),
      query(['date-time', 'errors'], ['date-time', 'errors', 'operators']),
      query(['stop-words'], ['stop-words']),
      query(['text-index', 'word-boundaries'], ['text-index', 'word-boundaries', 'stop-words']),
    ],
  },
  store: {
    dir: 'src/store/embedded',
    // Not in a bare `npm run mutate`: the last group runs every store test file for each of its many mutants.
    onlyWhenNamed: true,
    groups: [
      // What reaches the disk and how it is read back: one group each, so that a change there can be mutated on its own.
      store(['write-ahead-log', 'file-lines', 'log-records', 'durable-file'], ['write-ahead-log-file', 'write-ahead-log-writes', 'log-records', 'snapshot-file']),
      store(['snapshot'], ['snapshot-file', 'snapshot-writes', 'embedded']),
      store(['compaction-policy', 'compactor', 'frozen-documents', 'frozen-snapshot'], ['compaction-policy', 'compactor', 'frozen-documents', 'embedded']),
      store(['transaction-manager', 'write-scope', 'directory-lock', 'index'], ['transaction-manager', 'embedded']),
      // Reads, writes and indexes in memory (slow: every store test file for every mutant).
      store(
        ['access-plan', 'collection-index', 'collection-state', 'collection-view', 'compiled-filter', 'database', 'embedded-collection',
          'embedded-store', 'find-documents', 'find-per-key', 'group-all', 'group-by-key', 'index-aggregates', 'index-keys', 'json-values',
          'linear-regex', 'lookup-membership', 'ordered-keys', 'ordered-walk', 'pipeline-runner', 'position-bitset', 'position-ordered-page',
          'primary-key-filter', 'projection', 'run-access-plan', 'scan-deadline', 'sort-order', 'sorted-positions', 'write-operations'],
        ['embedded', 'embedded-index-paths', 'access-plan', 'bitset-density', 'compiled-filter', 'group-all', 'group-by-key', 'lookup-membership',
          'natural-id-order', 'nulls-last', 'ordered-keys', 'partial-index', 'plain-field-keys', 'position-bitset', 'position-ordered-page',
          'primary-key-reads', 'projected-copier', 'reads-at-deadline', 'run-access-plan', 'sort-order', 'sorted-positions', 'storable-document',
          'stored-collections'],
      ),
    ],
  },
  mutations: {
    dir: 'src/resolve/mutations',
    groups: [
      group(
        'src/resolve/mutations',
        ['buffered-inserts', 'default-values', 'edges', 'extended-key', 'given-id', 'hashed-password', 'interface-id-claims',
          'interface-ids', 'known-ids', 'objects', 'reference-guard', 'references', 'run', 'symmetric-edges', 'union-refs'],
        ['resolve/mutations/mutations'],
      ),
    ],
  },
};

/** Where Stryker writes a run's report: per group while running, per folder once merged. */
export function reportFile(folder, groupIndex, extension) {
  const name = groupIndex === undefined ? folder : `${folder}-${groupIndex}`;
  return `reports/mutation/${name}.${extension}`;
}
