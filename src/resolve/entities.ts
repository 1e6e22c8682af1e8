import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { SchemaModel, TypeModel } from '../sdl/model.js';
import type { Store, StoredDocument } from '../store/port.js';
import { loaderFor, type RequestContext } from './context.js';

/**
 * `_entities` support: `__resolveReference` for every type with a `@key`. All representations of one
 * type in one request load with one store query. An extended type's object that has no local document
 * yet resolves to the key alone (its local fields empty), since the owner vouches for it. Fields the
 * gateway sent in the representation (`@requires` inputs) stay on the object for custom resolvers.
 */
export function entityResolvers(model: SchemaModel, store: Store, type: TypeModel): Record<string, unknown> {
  const key = type.key;
  if (!key || type.kind !== 'type') return {};
  const keyIsDocumentId = type.extended || type.idField?.name === key;

  const createLoader = () => new DataLoader<string, StoredDocument | undefined>(async (keys) => {
    const filter = keyIsDocumentId ? { _id: { $in: [...keys] } } : { [key]: { $in: [...keys] } };
    const documents = await store.collection(type.name).find(filter);
    const byKey = new Map(documents.map((document) => [keyIsDocumentId ? document._id : String(document[key]), document]));
    return keys.map((value) => byKey.get(value));
  });

  return {
    __resolveReference: async (reference: Record<string, unknown>, context: RequestContext) => {
      const value = reference[key];
      if (value === undefined || value === null) {
        throw new GraphQLError(`representation of ${type.name} lacks its key field ${key}`, { extensions: { code: 'BAD_USER_INPUT' } });
      }
      const document = await loaderFor(context, `entity:${type.name}`, createLoader).load(String(value));
      if (document) return { ...reference, ...document, __typename: type.name };
      return type.extended ? { ...reference, _id: String(value), __typename: type.name } : null;
    },
  };
}
