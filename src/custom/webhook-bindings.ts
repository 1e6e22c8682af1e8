import { canAdd, canUpdate } from '../api/fields.js';
import { generateOf } from '../sdl/generate-directive.js';
import type { SchemaError, SchemaModel, TypeModel } from '../sdl/model.js';

/** The three mutation kinds `@lambdaOnMutate` switches on, as Dgraph names them in the event's `operation`. */
export type MutationOperation = 'add' | 'update' | 'delete';

const OPERATIONS: readonly MutationOperation[] = ['add', 'update', 'delete'];

/** The webhook name a committed mutation calls: `Type.add`, `Type.update`, `Type.delete`. */
export function webhookName(typeName: string, operation: MutationOperation): string {
  return `${typeName}.${operation}`;
}

/**
 * Whether a committed `operation` mutation of `type` calls its webhook: `@lambdaOnMutate` switches it on
 * and the API has that mutation (an interface has no `addT`; `@generate` may leave one out).
 */
export function callsWebhook(model: SchemaModel, type: TypeModel, operation: MutationOperation): boolean {
  if (!type.lambdaOnMutate?.[operation] || !generateOf(type)[operation]) return false;
  if (operation === 'add') return canAdd(model, type);
  if (operation === 'update') return canUpdate(model, type);
  return true;
}

/** Every webhook the schema's committed mutations call, by name. */
export function webhooksOf(model: SchemaModel): Array<{ type: TypeModel; operation: MutationOperation; name: string }> {
  const found = [];
  for (const type of model.types.values()) {
    for (const operation of OPERATIONS) {
      if (callsWebhook(model, type, operation)) found.push({ type, operation, name: webhookName(type.name, operation) });
    }
  }
  return found;
}

/**
 * One error per webhook a `@lambdaOnMutate` type calls that the loaded script does not register, like
 * `@lambda` fields (lambda-bindings.ts): checked whenever the schema or the script changes.
 */
export function missingWebhooks(model: SchemaModel, registry: { hasWebhook(name: string): boolean }): SchemaError[] {
  return webhooksOf(model)
    .filter(({ name }) => !registry.hasWebhook(name))
    .map(({ type, operation, name }) => ({
      message: `Type ${type.name} has @lambdaOnMutate(${operation}: true), but the lambda script registers no webhook "${name}" (self.addWebHookResolvers)`,
      locations: [type.loc],
    }));
}
