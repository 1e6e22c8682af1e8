import type { FieldModel, TypeModel } from '../sdl/model.js';
import { uniqueIdFields } from './fields.js';
import { names } from './names.js';

/** The generated API of `@secret(field:)`, as Dgraph shapes it. */

/** `pwd: String!` in `AddTInput`; `pwd: String` in `TPatch` and `TRef`. */
export function secretInputLine(type: TypeModel, required: boolean): string | undefined {
  return type.secret && `${type.secret.name}: String${required ? '!' : ''}`;
}

/**
 * The field `checkTPassword` names its object by: the `ID` field, else the first `@id` field, with the
 * type it is declared with. Without either there is no `checkTPassword`.
 */
export function passwordKeyField(type: TypeModel): FieldModel | undefined {
  return type.idField ?? uniqueIdFields(type)[0];
}

/** `checkTPassword(id: ID!, password: String!): T`. */
export function checkPasswordOperation(type: TypeModel): string | undefined {
  const key = passwordKeyField(type);
  if (!type.secret || !key) return undefined;
  const keyType = key.isIdField ? 'ID!' : key.typeText.endsWith('!') ? key.typeText : `${key.typeText}!`;
  return `${names.checkPassword(type.name)}(${key.name}: ${keyType}, ${type.secret.name}: String!): ${type.name}`;
}
