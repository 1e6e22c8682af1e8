import { Kind, type DirectiveNode, type ObjectValueNode, type ValueNode } from 'graphql';
import { describeValue, directiveArguments, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { GenerateSettings } from './model.js';

/**
 * `@generate(query: {get, query, password, aggregate}, mutation: {add, update, delete}, subscription)`:
 * which operations the API has for a type or interface. As in Dgraph, every switch defaults to true except
 * `subscription`.
 */
export const DEFAULT_GENERATE: Readonly<GenerateSettings> = Object.freeze({
  get: true,
  query: true,
  password: true,
  aggregate: true,
  add: true,
  update: true,
  delete: true,
  subscription: false,
});

const QUERY_SWITCHES = ['get', 'query', 'password', 'aggregate'] as const;
const MUTATION_SWITCHES = ['add', 'update', 'delete'] as const;

export function generateSettingsOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): GenerateSettings {
  const settings: GenerateSettings = { ...DEFAULT_GENERATE };
  const args = directiveArguments(directive, { allowed: ['query', 'mutation', 'subscription'] }, errors, describe);
  const query = args.get('query');
  if (query) readSwitches(query.value, 'query', QUERY_SWITCHES, settings, errors, describe);
  const mutation = args.get('mutation');
  if (mutation) readSwitches(mutation.value, 'mutation', MUTATION_SWITCHES, settings, errors, describe);
  const subscription = args.get('subscription');
  if (subscription) {
    const value = booleanOf(subscription.value, '@generate(subscription:)', errors, describe);
    if (value !== undefined) settings.subscription = value;
  }
  return settings;
}

function readSwitches(
  value: ValueNode,
  argument: 'query' | 'mutation',
  switches: readonly (keyof GenerateSettings)[],
  settings: GenerateSettings,
  errors: ErrorSink,
  describe: Describe,
): void {
  if (value.kind !== Kind.OBJECT) {
    errors.at(describe(`@generate(${argument}:) must be an object such as {${switches[0]}: false}, found ${describeValue(value)}`), value);
    return;
  }
  const seen = new Set<string>();
  for (const field of (value as ObjectValueNode).fields) {
    const name = field.name.value;
    if (!(switches as readonly string[]).includes(name)) {
      errors.at(describe(`@generate(${argument}:) has no field "${name}" (known: ${switches.join(', ')})`), field);
    } else if (seen.has(name)) {
      errors.at(describe(`@generate(${argument}:) repeats the field "${name}"`), field);
    } else {
      seen.add(name);
      const on = booleanOf(field.value, `@generate(${argument}: {${name}:})`, errors, describe);
      if (on !== undefined) settings[name as keyof GenerateSettings] = on;
    }
  }
}

function booleanOf(value: ValueNode, where: string, errors: ErrorSink, describe: Describe): boolean | undefined {
  if (value.kind === Kind.BOOLEAN) return value.value;
  errors.at(describe(`${where} must be true or false, found ${describeValue(value)}`), value);
  return undefined;
}

/** The type's `@generate` switches (all defaults when it has none). */
export function generateOf(type: { generate?: GenerateSettings }): Readonly<GenerateSettings> {
  return type.generate ?? DEFAULT_GENERATE;
}
