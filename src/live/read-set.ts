import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { names } from '../api/names.js';
import type { SchemaModel } from '../sdl/model.js';

/**
 * What a subscription reads, so that a write re-runs only the subscriptions it may change: the
 * collections of the subscribed type and of every type its relations (and `@auth` rules, which follow
 * relations) can reach, or everything for a `@lambda` query, whose script may read any type.
 */
export type ReadSet = { readonly kind: 'collections'; readonly collections: ReadonlySet<string> } | { readonly kind: 'everything' };

const EVERYTHING: ReadSet = Object.freeze({ kind: 'everything' });

/** Whether a write to `collections` may change what `reads` reads. */
export function touches(reads: ReadSet, collections: ReadonlySet<string>): boolean {
  if (reads.kind === 'everything') return true;
  for (const name of collections) if (reads.collections.has(name)) return true;
  return false;
}

/** The reads of the subscription operation: its root fields' (with one root field, as validation requires). */
export function readsOfOperation(model: SchemaModel, document: DocumentNode, operation: OperationDefinitionNode): ReadSet {
  const collections = new Set<string>();
  for (const field of rootFieldNames(document, operation.selectionSet)) {
    const reads = readsOfSubscriptionField(model, field);
    if (reads.kind === 'everything') return EVERYTHING;
    for (const name of reads.collections) collections.add(name);
  }
  return { kind: 'collections', collections };
}

/** The reads of one `Subscription` field: `getT`, `queryT`, `aggregateT` or a `@lambda` query. */
export function readsOfSubscriptionField(model: SchemaModel, field: string): ReadSet {
  for (const type of model.types.values()) {
    if (!type.withSubscription) continue;
    if (field === names.get(type.name) || field === names.query(type.name) || field === names.aggregate(type.name)) {
      return { kind: 'collections', collections: reachableTypes(model, type.name) };
    }
  }
  return EVERYTHING;
}

/** `start`, the types implementing it, and every type a relation leads to from those, transitively. */
export function reachableTypes(model: SchemaModel, start: string): Set<string> {
  const reached = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    const type = model.types.get(name);
    if (!type) continue;
    if (type.kind === 'interface') {
      for (const other of model.types.values()) if (other.implements.includes(name)) pending.push(other.name);
    }
    for (const field of type.fields) if (field.of.kind === 'relation') pending.push(field.of.target);
  }
  return reached;
}

function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): string[] {
  const fields: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== '__typename') fields.push(selection.name.value);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      fields.push(...rootFieldNames(document, selection.selectionSet, seen));
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find((definition) => definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === selection.name.value);
      if (fragment?.kind === Kind.FRAGMENT_DEFINITION) fields.push(...rootFieldNames(document, fragment.selectionSet, seen));
    }
  }
  return fields;
}
