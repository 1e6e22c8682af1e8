import { holdersByChildIds } from '../../src/resolve/child-id-batches.js';
import { modelOf } from '../auth/schema.js';

const model = modelOf(`
type Tag {
  id: ID!
  label: String!
}
type Post {
  id: ID!
  tags: [Tag]
}
`);
const tags = model.types.get('Post')!.fieldsByName.get('tags')!;

type Holder = { _id: string; tags?: string[] };

test.each<[string, Holder[], Holder[][]]>([
  ['no parents: one empty group', [], [[]]],
  ['parents within the size share a group', [{ _id: 'p1', tags: ['a'] }, { _id: 'p2', tags: ['b', 'c'] }], [[{ _id: 'p1', tags: ['a'] }, { _id: 'p2', tags: ['b', 'c'] }]]],
  [
    'a parent that would overflow the group starts the next one',
    [{ _id: 'p1', tags: ['a', 'b'] }, { _id: 'p2', tags: ['c', 'd'] }, { _id: 'p3' }],
    [[{ _id: 'p1', tags: ['a', 'b'] }], [{ _id: 'p2', tags: ['c', 'd'] }, { _id: 'p3' }]],
  ],
  [
    'a parent holding more than the size: one copy per batch of its ids (duplicates once), each alone',
    [{ _id: 'p1', tags: ['x'] }, { _id: 'big', tags: ['a', 'b', 'a', 'c', 'd', 'e'] }, { _id: 'p2', tags: ['y'] }],
    [
      [{ _id: 'p1', tags: ['x'] }],
      [{ _id: 'big', tags: ['a', 'b', 'c'] }],
      [{ _id: 'big', tags: ['d', 'e'] }],
      [{ _id: 'p2', tags: ['y'] }],
    ],
  ],
])('holdersByChildIds (size 3): %s', (_case, holders, expected) => {
  expect(holdersByChildIds(tags, holders, 3)).toEqual(expected);
});
