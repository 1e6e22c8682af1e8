import { perKeyPipeline, readPerKeyRows } from '../../src/store/mongo/per-key-pipeline.js';

describe('perKeyPipeline (findPerKey on MongoDB)', () => {
  it.each([
    [
      'filter, sort, skip and limit inside the sub-pipeline; keys once each',
      { keys: ['u1', 'u2', 'u1'], filter: { done: true }, page: { sort: { title: 1 as const, _id: 1 as const }, skip: 5, limit: 10 } },
      [
        { $documents: [{ key: 'u1' }, { key: 'u2' }] },
        {
          $lookup: {
            from: 'Task',
            localField: 'key',
            foreignField: 'user',
            pipeline: [
              { $match: { done: true } },
              { $addFields: { __null_title: { $cond: [{ $eq: [{ $ifNull: ['$title', null] }, null] }, 1, 0] } } },
              { $sort: { __null_title: 1, title: 1, _id: 1 } },
              { $skip: 5 },
              { $limit: 10 },
              { $unset: ['__null_title'] },
            ],
            as: 'page',
          },
        },
      ],
    ],
    [
      'no filter, no skip, limit 0 (all): no stages for them',
      { keys: ['u1'], filter: {}, page: { sort: { _id: 1 as const }, skip: 0, limit: 0 } },
      [
        { $documents: [{ key: 'u1' }] },
        { $lookup: { from: 'Task', localField: 'key', foreignField: 'user', pipeline: [{ $sort: { _id: 1 } }], as: 'page' } },
      ],
    ],
    [
      'a projection last, after the page is cut (the sort still sees every field)',
      { keys: ['u1'], filter: { done: false }, page: { sort: { _id: -1 as const }, limit: 10, projection: { title: 1 as const } } },
      [
        { $documents: [{ key: 'u1' }] },
        {
          $lookup: {
            from: 'Task',
            localField: 'key',
            foreignField: 'user',
            pipeline: [{ $match: { done: false } }, { $sort: { _id: -1 } }, { $limit: 10 }, { $project: { title: 1 } }],
            as: 'page',
          },
        },
      ],
    ],
  ])('%s', (_label, { keys, filter, page }, expected) => {
    expect(perKeyPipeline('Task', 'user', keys, filter, page)).toEqual(expected);
  });

  it('reads the rows back into a page per key, every key present', () => {
    const rows = [
      { key: 'u2', page: [{ _id: 't3', user: 'u2' }] },
      { key: 'u1', page: [] },
    ];
    expect([...readPerKeyRows(rows, ['u1', 'u2', 'u3'])]).toEqual([
      ['u1', []],
      ['u2', [{ _id: 't3', user: 'u2' }]],
      ['u3', []],
    ]);
  });
});
