import { projectDocument, projectedCopier } from '../../src/store/embedded/projection';
import type { StoredDocument } from '../../src/store/port';

const DOCUMENT: StoredDocument = JSON.parse(
  '{"_id":"t1","title":"a","tags":["x","y"],"meta":{"pages":3,"by":"z"},"reviews":[{"stars":5,"by":"p"},{"stars":2}],"__proto__":{"polluted":true}}',
);

describe('projectedCopier: a projected copy of a stored document', () => {
  it.each<[string, string[], Record<string, unknown>]>([
    ['top-level fields, in projection order', ['tags', 'title'], { _id: 't1', tags: ['x', 'y'], title: 'a' }],
    ['a missing field is left out', ['title', 'missing'], { _id: 't1', title: 'a' }],
    ['_id named in the projection comes once', ['_id', 'title'], { _id: 't1', title: 'a' }],
    ['a whole object field', ['meta'], { _id: 't1', meta: { pages: 3, by: 'z' } }],
    ['a dotted path keeps its enclosing object', ['meta.pages'], { _id: 't1', meta: { pages: 3 } }],
    ['a dotted path through an array projects every element', ['reviews.stars', 'title'], { _id: 't1', reviews: [{ stars: 5 }, { stars: 2 }], title: 'a' }],
  ])('%s', (_label, paths, expected) => {
    const copy = projectedCopier(paths)(DOCUMENT);
    expect(copy).toEqual(expected);
    expect(copy).toEqual(projectDocument(DOCUMENT, paths));
  });

  it('shares nothing with the stored document', () => {
    const copy = projectedCopier(['tags', 'meta'])(DOCUMENT);
    (copy.tags as string[]).push('changed');
    (copy.meta as Record<string, unknown>).pages = 99;
    expect(DOCUMENT.tags).toEqual(['x', 'y']);
    expect(DOCUMENT.meta).toEqual({ pages: 3, by: 'z' });
  });

  it('copies a field named __proto__ as an own field, never as the prototype', () => {
    const copy = projectedCopier(['__proto__'])(DOCUMENT);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(copy, '__proto__')).toBe(true);
    expect((copy as Record<string, unknown>).polluted).toBeUndefined();
  });
});
