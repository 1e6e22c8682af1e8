import { Kind, type DirectiveNode, type ValueNode } from 'graphql';
import { describeValue, directiveArguments, stringValueOf, type Describe } from './directive-values.js';
import { fieldMessage, type ErrorSink } from './errors.js';
import type { FieldDraft } from './fields.js';
import { DEFAULT_NOW, type FieldDefaults, type FieldModel } from './model.js';
import type { TypeDraft } from './types.js';

const ACTIONS = ['add', 'update'] as const;

/**
 * `@default(add: {value: "..."}, update: {value: "..."})`: the value an add (a new object) or an update
 * (an existing one) writes when its input leaves the field out; `"$now"` on a DateTime is the time of the
 * write. Dgraph's rules: only on single-valued scalar or enum fields that are stored (not the ID, not
 * `@id`, not `@lambda`/`@custom`), and the value must suit the field's type. A field with an add default
 * becomes optional in `AddTInput`.
 */
export function readFieldDefaults(drafts: ReadonlyMap<string, TypeDraft>, enumValues: (name: string) => readonly string[] | undefined, errors: ErrorSink): void {
  for (const draft of drafts.values()) {
    for (const field of draft.ownFields) {
      const directive = field.directives.get('default');
      if (!directive) continue;
      const defaults = defaultsOf(field, directive, enumValues, errors, (message) => fieldMessage(draft.name, field.model.name, message));
      if (defaults) field.model.defaults = defaults;
    }
  }
  for (const draft of drafts.values()) {
    for (const field of draft.fields) {
      if (field.origin === draft.name) continue;
      const inherited = drafts.get(field.origin)?.fieldsByName.get(field.model.name)?.model.defaults;
      if (inherited) field.model.defaults = inherited;
    }
  }
}

function defaultsOf(
  field: FieldDraft,
  directive: DirectiveNode,
  enumValues: (name: string) => readonly string[] | undefined,
  errors: ErrorSink,
  describe: Describe,
): FieldDefaults | undefined {
  const refusal = placeRefusal(field.model, field.directives);
  if (refusal) {
    errors.at(describe(`cannot use @default directive on field with ${refusal}`), directive);
    return undefined;
  }
  const args = directiveArguments(directive, { allowed: ACTIONS }, errors, describe);
  if (args.size === 0) {
    errors.at(describe('@default needs add: {value: "..."}, update: {value: "..."} or both'), directive);
    return undefined;
  }
  const defaults: FieldDefaults = {};
  for (const action of ACTIONS) {
    const argument = args.get(action);
    if (!argument) continue;
    const value = valueOf(argument.value, action, errors, describe);
    if (value === undefined) continue;
    const problem = valueProblem(field.model, value, enumValues);
    if (problem) {
      errors.at(describe(`@default directive provides value ${JSON.stringify(value)} which cannot be used with ${field.model.namedType}${problem === true ? '' : ` (${problem})`}`), argument.value);
      continue;
    }
    defaults[action] = value;
  }
  return Object.keys(defaults).length > 0 ? defaults : undefined;
}

/** What keeps `@default` off this field, in Dgraph's words; undefined when it may stand. */
function placeRefusal(field: FieldModel, directives: FieldDraft['directives']): string | undefined {
  if (field.of.kind === 'relation') return `non-scalar type ${field.namedType}`;
  if (field.list) return `list type [${field.namedType}]`;
  if (directives.has('id')) return '@id directive';
  if (field.isIdField) return 'type ID';
  if (field.custom) return '@custom directive';
  if (field.lambda) return '@lambda directive';
  return undefined;
}

/** `{ value: "..." }`: the string it holds. */
function valueOf(node: ValueNode, action: string, errors: ErrorSink, describe: Describe): string | undefined {
  if (node.kind !== Kind.OBJECT || node.fields.length !== 1 || node.fields[0]!.name.value !== 'value') {
    errors.at(describe(`@default(${action}:) must be an object like {value: "..."}, found ${describeValue(node)}`), node);
    return undefined;
  }
  const valueNode = node.fields[0]!.value;
  const value = stringValueOf(valueNode);
  if (value === undefined) errors.at(describe(`@default(${action}: {value:}) must be a string, found ${describeValue(valueNode)}`), valueNode);
  return value;
}

const INTEGER = /^[+-]?\d+$/;

/** true (or a reason) when `value` cannot be stored in the field. */
function valueProblem(field: FieldModel, value: string, enumValues: (name: string) => readonly string[] | undefined): true | string | undefined {
  if (field.of.kind === 'enum') {
    const values = enumValues(field.of.enumName) ?? [];
    return values.includes(value) ? undefined : `not a value of enum ${field.of.enumName}`;
  }
  if (field.of.kind !== 'scalar') return true;
  const scalar = field.of.scalar;
  if (value === DEFAULT_NOW) return scalar === 'DateTime' ? undefined : true;
  switch (scalar) {
    case 'Int':
      return INTEGER.test(value) && Math.abs(Number(value)) <= 2 ** 31 - 1 ? undefined : true;
    case 'Int64':
      return INTEGER.test(value) && Number.isSafeInteger(Number(value)) ? undefined : true;
    case 'Float':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? undefined : true;
    case 'Boolean':
      return value === 'true' || value === 'false' ? undefined : true;
    case 'DateTime':
      // A coarse check: the write reads the value with query/date-time.ts, as it reads a client's.
      return /^\d{4}/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'not a date-time like "2026-01-31T12:00:00Z"';
    default:
      return undefined;
  }
}
