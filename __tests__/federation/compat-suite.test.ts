import { expectedToPass, runCompatibilitySuite, type SuiteRow } from '../../gateway-demo/compat/run';

/**
 * Apollo's subgraph compatibility suite against Autograph as its products subgraph (gateway-demo/compat),
 * offline: the suite's users/inventory subgraphs, @apollo/composition and @apollo/gateway on the ports the
 * suite expects (4000 to 4003, which must be free). Each run takes about ten seconds.
 */

jest.setTimeout(120_000);

const results = (rows: readonly SuiteRow[]) => Object.fromEntries(rows.map((row) => [row.assertion, row.passed ? 'pass' : 'fail']));

test('a Federation 2 products schema passes every test of the suite', async () => {
  const rows = await runCompatibilitySuite(2);
  expect(results(rows)).toEqual({
    introspection: 'pass', '@key single': 'pass', '@key multiple': 'pass', '@key composite': 'pass', 'repeatable @key': 'pass',
    '@requires': 'pass', '@provides': 'pass', ftv1: 'pass', '@link': 'pass', '@shareable': 'pass', '@tag': 'pass',
    '@override': 'pass', '@inaccessible': 'pass', '@composeDirective': 'pass', '@interfaceObject': 'pass',
  });
});

test('a Federation 1 products schema passes the Federation 1 tests within its reach, and no Federation 2 test', async () => {
  const rows = await runCompatibilitySuite(1);
  expect(expectedToPass(rows, 1).map((row) => row.assertion)).toEqual(['introspection', '@requires', '@provides', 'ftv1']);
  expect(results(rows)).toEqual({
    introspection: 'pass', '@key single': 'fail', '@key multiple': 'fail', '@key composite': 'fail', 'repeatable @key': 'fail',
    '@requires': 'pass', '@provides': 'pass', ftv1: 'pass', '@link': 'fail', '@shareable': 'fail', '@tag': 'fail',
    '@override': 'fail', '@inaccessible': 'fail', '@composeDirective': 'fail', '@interfaceObject': 'fail',
  });
});
