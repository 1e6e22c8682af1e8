import DataLoader from 'dataloader';
import { storedPath } from '../query/schema-facts.js';
import { isKeptHere } from '../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../sdl/model.js';
import type { StoredDocument } from '../store/port.js';
import { ID_BATCH_SIZE } from '../store/id-batches.js';
import { authConstraint, restrictPlan } from './authorize.js';
import { loaderFor, type RequestContext } from './context.js';
import { runPlan, type GraphObject } from './read.js';
import { storeOf } from './model-store.js';

/**
 * Objects answered by a `@lambda` or `@custom` field are the script's values, not stored documents: a
 * relation stored on their side is usually missing from them. When such an object carries its ID, the
 * relation's edge comes from its stored document, so `{ authorByName { city { name } } }` answers like
 * `{ getAuthor { city { name } } }`.
 *
 * A relation the script answered with objects (`{ variation: { id: "v1", label: "..." } }`) is the
 * relation's value: the related objects are the script's, answered as given (the relation's arguments
 * apply to stored reads only). Any answered object that carries its ID answers the values it lacks from
 * its stored document.
 */

/** Held weakly: the objects live as long as the request that resolves them. */
const answeredByCustomLogic = new WeakSet<object>();

/** Per object answered by custom logic: its relations answered as objects, by field name. */
const answeredRelations = new WeakMap<object, ReadonlyMap<string, AnsweredRelation>>();

/** A related object as answered (shaped), a list of them, or null. */
export type AnsweredRelation = GraphObject | null | ReadonlyArray<GraphObject | null>;

/** Whether `object` is custom logic's answer (values by field name), not a stored document (values by stored name). */
export function isFromCustomLogic(object: object): boolean {
  return answeredByCustomLogic.has(object);
}

export function markFromCustomLogic<T extends Record<string, unknown>>(object: T, relations?: ReadonlyMap<string, AnsweredRelation>): T {
  answeredByCustomLogic.add(object);
  if (relations && relations.size > 0) answeredRelations.set(object, relations);
  return object;
}

/** The value custom logic answered as objects for `field` of `parent`; undefined when the store has it. */
export function answeredRelationOf(parent: object, field: FieldModel): { value: AnsweredRelation } | undefined {
  const relations = answeredRelations.get(parent);
  return relations?.has(field.name) ? { value: relations.get(field.name)! } : undefined;
}

function lacksStoredEdge(parent: GraphObject, path: string): boolean {
  return answeredByCustomLogic.has(parent) && typeof parent._id === 'string' && parent[path] === undefined;
}

/**
 * `parents`, with the stored edge of `field` filled in for those answered by custom logic without it: one
 * read of the type's collection for all of them, and none when every parent is a stored document.
 */
export async function withStoredEdges(context: RequestContext, model: SchemaModel, type: TypeModel, field: FieldModel, parents: readonly GraphObject[]): Promise<readonly GraphObject[]> {
  const path = storedPath(field);
  const lacking = [...new Set(parents.filter((parent) => lacksStoredEdge(parent, path)).map((parent) => parent._id))];
  if (lacking.length === 0) return parents;
  const documents = await storeOf(context, model).collection(type.name).find({ _id: { $in: lacking } }, { projection: { [path]: 1 } });
  const edges = new Map(documents.map((document) => [document._id, document[path]]));
  return parents.map((parent) => (lacksStoredEdge(parent, path) ? { ...parent, [path]: edges.get(parent._id) } : parent));
}

/**
 * Whether the selection asks `object` for a value this service stores and the object lacks (an `@external`
 * field's stored copy may be stale: it is not one). Relations are left out: their edges come from
 * `withStoredEdges`, which reads only the edge.
 */
function lacksRequestedValues(model: SchemaModel, object: GraphObject, requested: ReadonlySet<string>): boolean {
  const type = model.types.get(object.__typename);
  if (!type) return false;
  return type.fields.some((field) =>
    field.of.kind !== 'relation' && isKeptHere(model, type, field) && !field.isIdField && requested.has(field.name) && object[field.name] === undefined);
}

/** Stored documents of one concrete type by ID, read once per level for the whole request, as the caller may see them. */
function storedObjectLoader(context: RequestContext, model: SchemaModel, typeName: string): DataLoader<string, StoredDocument | undefined> {
  return loaderFor(context, `answered-object:${typeName}`, () => new DataLoader<string, StoredDocument | undefined>(async (ids) => {
    const plan = restrictPlan({ lookups: [], match: { _id: { $in: [...ids] } } }, authConstraint(context, model, typeName, 'query'));
    const byId = new Map((await runPlan(storeOf(context, model).collection(typeName), plan, { _id: 1 }, 0, undefined)).map((document) => [document._id, document]));
    return ids.map((id) => byId.get(id));
  }, { maxBatchSize: ID_BATCH_SIZE }));
}

/**
 * The answered object completed by the values its stored document holds for the fields kept here; the
 * answered fields win. A relation edge the document lacks is none, so `withStoredEdges` does not read the
 * document again for it.
 */
function completedBy(model: SchemaModel, object: GraphObject, stored: StoredDocument): GraphObject {
  const completed: Record<string, unknown> = { ...object };
  const type = model.types.get(object.__typename);
  for (const field of type?.fields ?? []) {
    // Answered objects hold values by field name, edges where relations read them (the stored path).
    const key = field.of.kind === 'relation' ? storedPath(field) : field.name;
    if (!isKeptHere(model, type!, field) || field.isIdField || completed[key] !== undefined) continue;
    if (field.of.kind === 'relation' && field.storedHere === false) continue;
    completed[key] = stored[storedPath(field)] ?? null;
  }
  return markFromCustomLogic(completed as GraphObject, answeredRelations.get(object));
}

/**
 * An answered value (of a custom field or of a relation answered inside an object) with, for each object
 * carrying its ID that lacks a stored value `requested` asks for, its stored document's values under its
 * own: one read per concrete type for the whole level, none when the answered objects hold what is asked.
 * Objects the caller may not see stay as answered.
 */
export async function withStoredFields(context: RequestContext, model: SchemaModel, answered: AnsweredRelation, requested: ReadonlySet<string>): Promise<AnsweredRelation> {
  const objects = Array.isArray(answered) ? answered : [answered];
  const lacking = objects.filter((object): object is GraphObject =>
    object !== null && typeof object._id === 'string' && lacksRequestedValues(model, object, requested));
  if (lacking.length === 0) return answered;
  const stored = await Promise.all(lacking.map((object) => storedObjectLoader(context, model, object.__typename).load(object._id)));
  const completed = new Map(lacking.map((object, index) => [object, stored[index] ? completedBy(model, object, stored[index]) : object]));
  const complete = (object: GraphObject | null) => (object === null ? null : completed.get(object) ?? object);
  return Array.isArray(answered) ? answered.map(complete) : complete(answered as GraphObject | null);
}
