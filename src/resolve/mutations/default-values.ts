import { parseDateTime } from '../../query/date-time.js';
import { DEFAULT_NOW, type FieldModel, type TypeModel } from '../../sdl/model.js';

type Input = Record<string, unknown>;

/**
 * `@default` in writes, as Dgraph applies it: an add (a new object, nested ones included) takes each
 * `add` value its input leaves out (absent or null); an update's `set`, and an upsert that finds its
 * object, take each `update` value the patch leaves out (absent: an explicit null still removes). The
 * values are what a client would have sent: `"$now"` is the time of the mutation, the same for every
 * object it writes.
 */
export function withDefaultValues(type: TypeModel, input: Input, action: 'add' | 'update', now: () => string): Input {
  let result = input;
  for (const field of type.fields) {
    const written = field.defaults?.[action];
    if (written === undefined) continue;
    const given = input[field.name];
    if (given !== undefined && !(action === 'add' && given === null)) continue;
    if (result === input) result = { ...input };
    result[field.name] = defaultValueOf(field, written, now);
  }
  return result;
}

function defaultValueOf(field: FieldModel, written: string, now: () => string): unknown {
  if (written === DEFAULT_NOW) return now();
  if (field.of.kind !== 'scalar') return written;
  switch (field.of.scalar) {
    case 'Int':
    case 'Int64':
    case 'Float':
      return Number(written);
    case 'Boolean':
      return written === 'true';
    case 'DateTime': {
      const parsed = parseDateTime(written);
      if (!parsed.ok) throw new Error(`@default of ${field.name}: ${parsed.problem}`);
      return parsed.iso;
    }
    default:
      return written;
  }
}
