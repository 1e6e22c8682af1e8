import { fieldMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import { storedNameOf } from './storage-names.js';
import type { TypeDraft } from './types.js';

/**
 * Dgraph's reverse edges: `directors: [Director] @dgraph(pred: "~directed")` on `Movie` reads, from the
 * other end, the edges `Director.directed` (stored under `directed`) holds. Here that is the derived side
 * of a relation pair: the forward field stores the ids, the reverse field is found by querying them, as
 * for a `@hasInverse` pair. Runs after `resolveRelations`, whose choice of storing side it overrides.
 */
export function pairReversePredicates(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  for (const draft of drafts.values()) {
    for (const field of draft.fields) {
      if (field.model.reversePredicate === undefined) continue;
      // An interface's reverse field is checked on the types implementing it (as in Dgraph); the interface's
      // own model is derived too, so reads through the interface never look for ids stored on its side.
      if (draft.kind === 'interface') {
        markInterfaceSideDerived(field, drafts);
        continue;
      }
      const report = field.origin === draft.name;
      const fail = (message: string): void => {
        if (report) errors.at(fieldMessage(draft.name, field.model.name, message), field.directives.get('dgraph') ?? field.node);
      };
      const forward = forwardFieldOf(draft, field, drafts, fail);
      if (!forward) continue;
      field.model.storedHere = false;
      field.model.inverse = { type: forward.type.name, field: forward.field.model.name };
      forward.field.model.storedHere = true;
      forward.field.model.inverse = { type: draft.name, field: field.model.name };
    }
  }
}

function markInterfaceSideDerived(field: FieldDraft, drafts: ReadonlyMap<string, TypeDraft>): void {
  const { model } = field;
  if (model.of.kind !== 'relation') return;
  const target = drafts.get(model.of.target);
  const stored = storedNameOf(model.reversePredicate!);
  const forward = target?.fields.find((candidate) => candidate.model.of.kind === 'relation' && (candidate.model.storedName ?? candidate.model.name) === stored);
  model.storedHere = false;
  if (target && forward) model.inverse = { type: target.name, field: forward.model.name };
}

function forwardFieldOf(
  draft: TypeDraft,
  field: FieldDraft,
  drafts: ReadonlyMap<string, TypeDraft>,
  fail: (message: string) => void,
): { type: TypeDraft; field: FieldDraft } | undefined {
  const { model } = field;
  const predicate = model.reversePredicate!;
  if (model.of.kind !== 'relation') {
    fail(`is of type ${model.namedType}, but a reverse predicate in @dgraph only applies to fields with object types`);
    return undefined;
  }
  if (!model.list) {
    fail(`with a @dgraph(pred:) starting with ~ should be of type list ([${model.namedType}])`);
    return undefined;
  }
  if (model.hasInverse !== undefined) {
    fail('@hasInverse is not allowed when the pred argument of @dgraph starts with a ~');
    return undefined;
  }
  const target = drafts.get(model.of.target);
  if (!target) return undefined;
  if (target.kind !== 'type') {
    fail(`the reverse predicate ~${predicate} reads edges stored on ${target.name}, an interface; only reverse edges of object types are supported`);
    return undefined;
  }
  const stored = storedNameOf(predicate);
  const forward = target.fields.find((candidate) => candidate.model.of.kind === 'relation' && !candidate.model.isIdField
    && candidate.model.reversePredicate === undefined && (candidate.model.storedName ?? candidate.model.name) === stored);
  if (!forward) {
    fail(`pred argument: ~${predicate} is not supported as forward edge doesn't exist for type ${target.name}`);
    return undefined;
  }
  if (forward.model.of.kind === 'relation' && forward.model.of.target !== draft.name) {
    fail(`the forward edge ${target.name}.${forward.model.name} holds ${forward.model.of.target}; to be read in reverse here it must hold ${draft.name}`);
    return undefined;
  }
  if (forward.model.hasInverse !== undefined) {
    fail(`${target.name}.${forward.model.name}: @hasInverse is not allowed because the field is the forward edge of a field with a reverse predicate`);
    return undefined;
  }
  return { type: target, field: forward };
}
