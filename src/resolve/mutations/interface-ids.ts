import { GraphQLError } from 'graphql';
import { ErrorCode } from '../../errors/codes.js';
import { concreteTypesOf } from '../../sdl/facts.js';
import type { TypeModel } from '../../sdl/model.js';
import type { Write } from './objects.js';

/**
 * `@id(interface: true)`: a value of the field is unique across every type implementing the interface,
 * not only within the object's own type (which the type's unique index already enforces). Before an
 * object of `type` takes such values, the other implementing types are asked, in the mutation's
 * transaction, whether one of their objects holds the value.
 */
export async function checkInterfaceUniqueIds(write: Write, type: TypeModel, values: Readonly<Record<string, unknown>>): Promise<void> {
  for (const field of type.fields) {
    const interfaceName = field.uniqueAcrossInterface;
    const value = values[field.name];
    if (interfaceName === undefined || value === undefined || value === null) continue;
    for (const other of concreteTypesOf(write.model, interfaceName)) {
      if (other.name === type.name) continue;
      const [found] = await write.store.collection(other.name).find({ [field.name]: value }, { limit: 1, projection: { _id: 1 } }, { tx: write.tx });
      if (found) throw interfaceDuplicateError(interfaceName, field.name, value);
    }
  }
}

/** Dgraph's wording, so clients moving over keep matching on it. */
function interfaceDuplicateError(interfaceName: string, field: string, value: unknown): GraphQLError {
  return new GraphQLError(`id ${String(value)} already exists for field ${field} in some other implementing type of interface ${interfaceName}`, {
    extensions: { code: ErrorCode.DUPLICATE_ID, interface: interfaceName, field, value },
  });
}
