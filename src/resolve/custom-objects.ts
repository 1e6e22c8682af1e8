import { storedPath } from '../query/schema-facts.js';
import type { FieldModel, TypeModel } from '../sdl/model.js';
import type { RequestContext } from './context.js';
import type { GraphObject } from './read.js';

/**
 * Objects answered by a `@lambda` or `@custom` field are the script's values, not stored documents: a
 * relation stored on their side is usually missing from them. When such an object carries its ID, the
 * relation's edge comes from its stored document, so `{ authorByName { city { name } } }` answers like
 * `{ getAuthor { city { name } } }`.
 */

/** Held weakly: the objects live as long as the request that resolves them. */
const answeredByCustomLogic = new WeakSet<object>();

export function markFromCustomLogic<T extends Record<string, unknown>>(object: T): T {
  answeredByCustomLogic.add(object);
  return object;
}

function lacksStoredEdge(parent: GraphObject, path: string): boolean {
  return answeredByCustomLogic.has(parent) && typeof parent._id === 'string' && parent[path] === undefined;
}

/**
 * `parents`, with the stored edge of `field` filled in for those answered by custom logic without it: one
 * read of the type's collection for all of them, and none when every parent is a stored document.
 */
export async function withStoredEdges(context: RequestContext, type: TypeModel, field: FieldModel, parents: readonly GraphObject[]): Promise<readonly GraphObject[]> {
  const path = storedPath(field);
  const lacking = [...new Set(parents.filter((parent) => lacksStoredEdge(parent, path)).map((parent) => parent._id))];
  if (lacking.length === 0) return parents;
  const documents = await context.store.collection(type.name).find({ _id: { $in: lacking } }, { projection: { [path]: 1 } });
  const edges = new Map(documents.map((document) => [document._id, document[path]]));
  return parents.map((parent) => (lacksStoredEdge(parent, path) ? { ...parent, [path]: edges.get(parent._id) } : parent));
}
