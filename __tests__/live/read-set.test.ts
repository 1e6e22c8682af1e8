import { parse, type OperationDefinitionNode } from 'graphql';
import { readsOfOperation, touches, type ReadSet } from '../../src/live/read-set.js';
import { validModel } from '../sdl/helpers.js';

const model = validModel(`
  interface Owned { owner: String! }
  type Task implements Owned @withSubscription { id: ID! title: String user: User tags: [Tag] }
  type Doc implements Owned { id: ID! }
  type User { name: String! @id tasks: [Task] @hasInverse(field: user) }
  type Tag @withSubscription { id: ID! label: String }
  type Team { id: ID! }
  type Shelf @withSubscription { id: ID! items: [Owned] }
  type Query { taskCount: Int @lambda @withSubscription }
`);

function readsOf(text: string): ReadSet {
  const document = parse(text);
  return readsOfOperation(model, document, document.definitions.find((definition) => definition.kind === 'OperationDefinition') as OperationDefinitionNode);
}

const sorted = (reads: ReadSet) => (reads.kind === 'everything' ? 'everything' : [...reads.collections].sort());

describe('what a subscription reads', () => {
  const cases: Array<[operation: string, reads: string[] | 'everything']> = [
    ['subscription { queryTask { title } }', ['Tag', 'Task', 'User']],
    ['subscription { getTask(id: "1") { title } }', ['Tag', 'Task', 'User']],
    ['subscription { aggregateTag { count } }', ['Tag']],
    // Through an interface: every type that implements it, and their relations.
    ['subscription { queryShelf { id } }', ['Doc', 'Owned', 'Shelf', 'Tag', 'Task', 'User']],
    ['subscription S { ...F } fragment F on Subscription { queryTag { id } }', ['Tag']],
    ['subscription { __typename queryTag { id } }', ['Tag']],
    // A lambda may read anything.
    ['subscription { taskCount }', 'everything'],
  ];
  it.each(cases)('%s', (operation, expected) => {
    expect(sorted(readsOf(operation))).toEqual(expected);
  });

  it('is touched by a batch that wrote one of its collections, and only then', () => {
    const reads = readsOf('subscription { queryTask { title } }');
    expect(touches(reads, new Set(['Team', 'User']))).toBe(true);
    expect(touches(reads, new Set(['Team', '_autograph_schema']))).toBe(false);
    expect(touches(readsOf('subscription { taskCount }'), new Set(['Team']))).toBe(true);
  });
});
