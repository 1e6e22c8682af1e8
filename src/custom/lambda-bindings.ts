import type { FieldModel, SchemaError, SchemaModel } from '../sdl/model.js';

/** A `@lambda` field of the schema and the resolver names that may serve it, most specific first. */
export interface LambdaField {
  /** The object type the field is resolved on: a type name, `Query` or `Mutation`. */
  typeName: string;
  field: FieldModel;
  /** `Type.field`, then `Interface.field` when the field is inherited from an interface. */
  candidates: string[];
}

/** Every `@lambda` field resolved on an object type, a custom query or a custom mutation. */
export function lambdaFieldsOf(model: SchemaModel): LambdaField[] {
  const fields: LambdaField[] = [];
  for (const type of model.types.values()) {
    if (type.kind !== 'type') continue;
    for (const field of type.fields) {
      if (!field.lambda) continue;
      const candidates = [`${type.name}.${field.name}`];
      if (field.inheritedFrom) candidates.push(`${field.inheritedFrom}.${field.name}`);
      fields.push({ typeName: type.name, field, candidates });
    }
  }
  for (const [typeName, list] of [['Query', model.customQueries], ['Mutation', model.customMutations]] as const) {
    for (const field of list) {
      if (field.lambda) fields.push({ typeName, field, candidates: [`${typeName}.${field.name}`] });
    }
  }
  return fields;
}

/** The registered resolver that serves a lambda field, if any. */
export function resolverNameFor(field: LambdaField, registry: { has(name: string): boolean }): string | undefined {
  return field.candidates.find((name) => registry.has(name));
}

/**
 * One error per `@lambda` field that the loaded script does not serve. Check it whenever the schema or the
 * script changes (whichever comes second finds the gap).
 */
export function missingLambdaResolvers(model: SchemaModel, registry: { has(name: string): boolean }): SchemaError[] {
  return lambdaFieldsOf(model)
    .filter((field) => resolverNameFor(field, registry) === undefined)
    .map(({ typeName, field, candidates }) => ({
      message: `${typeName}.${field.name} has @lambda, but the lambda script registers no resolver for it (expected ${candidates
        .map((name) => `"${name}"`)
        .join(' or ')})`,
      locations: [field.loc],
    }));
}
