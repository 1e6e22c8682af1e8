import { ClientInputError } from '../../errors/codes.js';
import { concreteTypesOf } from '../../sdl/facts.js';
import type { FieldModel, SchemaModel, TypeModel } from '../../sdl/model.js';
import { relationFieldsOf } from './field-lists.js';
import { givenId } from './given-id.js';
import { checkNewObject } from './new-object-check.js';
import { memberRefOf } from './union-refs.js';

type Input = Record<string, unknown>;

/**
 * The checks of an update's input that do not depend on what is stored, made before its filter is read,
 * so they refuse it whether or not the filter matches an object, as Dgraph's rewriter refuses it:
 * - every Ref in `remove` names an object, by its `ID` or an `@id` value ("id is not provided");
 * - a Ref in `set` that gives neither is a new object whatever the store holds: it passes the checks of
 *   every new object (new-object-check.ts), and so do the new objects nested in it.
 * The other new objects are checked when they are created (objects.ts).
 */
export function checkUpdateInput(model: SchemaModel, type: TypeModel, set: Input, remove: Input): void {
  for (const [, ref] of refsOf(model, type, remove)) {
    if (!namesAnObject(model, ref.typeName, ref.ref)) throw new ClientInputError('id is not provided');
  }
  checkNewRefs(model, type, set);
}

function checkNewRefs(model: SchemaModel, type: TypeModel, input: Input): void {
  for (const [field, { typeName, ref }] of refsOf(model, type, input)) {
    if (namesAnObject(model, typeName, ref)) continue;
    const candidates = concreteTypesOf(model, typeName);
    // A Ref to an interface with no id is refused when it is resolved (objects.ts).
    if (candidates.length !== 1) continue;
    const created = candidates[0]!;
    checkNewObject(model, created, ref, field);
    checkNewRefs(model, created, ref);
  }
}

/** Each Ref an input gives for `type`'s relation fields, with the field and the type it names (a union's member). */
function refsOf(model: SchemaModel, type: TypeModel, input: Input): Array<[FieldModel, { typeName: string; ref: Input }]> {
  const refs: Array<[FieldModel, { typeName: string; ref: Input }]> = [];
  for (const field of relationFieldsOf(model, type)) {
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    for (const ref of Array.isArray(value) ? value : [value]) {
      if (typeof ref === 'object' && ref !== null) refs.push([field, memberRefOf(model, field.namedType, ref as Input)]);
    }
  }
  return refs;
}

/** Whether a Ref gives its object's `ID`, an `@id` value or (an extended type's) key: then it may name an existing object. */
function namesAnObject(model: SchemaModel, typeName: string, ref: Input): boolean {
  if (givenId(model, typeName, ref) !== undefined) return true;
  const type = model.types.get(typeName);
  const types = type ? [type, ...concreteTypesOf(model, typeName)] : concreteTypesOf(model, typeName);
  return types.some((candidate) => candidate.fields.some((field) => (field.isUniqueId || field.name === candidate.key) && ref[field.name] !== undefined && ref[field.name] !== null));
}
