import { searchOf } from '../../src/server/graphql-endpoint';
import { pathnameOf } from '../../src/server/router';

/** The router and the GraphQL endpoint read a request target as `new URL(target, base)` would, without always building one. */
const TARGETS: Array<{ target: string; path: string; search: string }> = [
  { target: '/graphql', path: '/graphql', search: '' },
  { target: '/graphql?query=%7B__typename%7D', path: '/graphql', search: '?query=%7B__typename%7D' },
  { target: '/graphql?', path: '/graphql', search: '' },
  { target: '/admin/schema/history/3/activate?dryRun=true', path: '/admin/schema/history/3/activate', search: '?dryRun=true' },
  { target: '/admin/collections/Task_2-b', path: '/admin/collections/Task_2-b', search: '' },
  { target: '/', path: '/', search: '' },
  { target: '', path: '/', search: '' },
  // Targets that `new URL` changes: the fast path must not answer for them.
  { target: '/a/../graphql', path: '/graphql', search: '' },
  { target: '/./graphql', path: '/graphql', search: '' },
  { target: '/%67raphql', path: '/%67raphql', search: '' },
  { target: '//graphql', path: '/', search: '' },
  { target: '/graphql#part', path: '/graphql', search: '' },
  { target: '/graphql?query={a b}#part', path: '/graphql', search: '?query={a%20b}' },
  { target: '/admin\\schema', path: '/admin/schema', search: '' },
  { target: '/GRAPHQL/', path: '/GRAPHQL/', search: '' },
];

describe('request targets', () => {
  it.each(TARGETS)('$target has path $path and search "$search"', ({ target, path, search }) => {
    expect(pathnameOf(target)).toBe(path);
    expect(searchOf(target)).toBe(search);
  });

  it.each(TARGETS)('$target reads as new URL reads it', ({ target }) => {
    const url = new URL(target, 'http://localhost');
    expect(pathnameOf(target)).toBe(url.pathname);
    expect(searchOf(target)).toBe(url.search);
  });
});
