/**
 * Index definitions and the one thing this stand-in does with them: enforce uniqueness (including `sparse`
 * and `partialFilterExpression`), with MongoDB's key extraction (a missing field is `null`, an array
 * contributes each element). Indexes never speed anything up here: every read is a full scan.
 */
import { Query } from 'mingo';
import { CommandError, duplicateKeyError } from './errors';
import { isDocument, keyOf, valuesAtPath, type Document } from './values';

export interface IndexDefinition {
  name: string;
  key: Document;
  unique: boolean;
  sparse: boolean;
  partialFilterExpression?: Document;
}

export const ID_INDEX: IndexDefinition = { name: '_id_', key: { _id: 1 }, unique: true, sparse: false };

/** Options of createIndexes this server understands; any other is refused, so a gap is visible. */
const KNOWN_OPTIONS = new Set(['key', 'name', 'unique', 'sparse', 'partialFilterExpression', 'v', 'background']);

/** Reads one entry of a `createIndexes` command's `indexes` array. */
export function indexDefinitionFrom(spec: unknown): IndexDefinition {
  if (!isDocument(spec)) throw new CommandError('TypeMismatch', 'each index specification must be an object');
  for (const option of Object.keys(spec)) {
    if (!KNOWN_OPTIONS.has(option)) {
      throw new CommandError('InvalidIndexSpecificationOption', `The field '${option}' is not valid for an index specification (not supported by the wire test server)`);
    }
  }
  const { key, name } = spec;
  if (!isDocument(key) || Object.keys(key).length === 0) {
    throw new CommandError('CannotCreateIndex', "Index keys cannot be an empty field.");
  }
  for (const [field, direction] of Object.entries(key)) {
    if (direction !== 1 && direction !== -1) {
      throw new CommandError('CannotCreateIndex', `Values in the index key pattern can only be 1 or -1 here (the wire test server has no ${JSON.stringify(direction)} indexes); field ${field}`);
    }
  }
  if (typeof name !== 'string' || name === '') throw new CommandError('CannotCreateIndex', 'The index name must be a non-empty string');
  const partial = spec.partialFilterExpression;
  if (partial !== undefined && !isDocument(partial)) throw new CommandError('TypeMismatch', 'partialFilterExpression must be an object');
  return {
    name,
    key,
    unique: spec.unique === true,
    sparse: spec.sparse === true,
    ...(partial !== undefined && { partialFilterExpression: partial }),
  };
}

/** The index as `listIndexes` shows it. */
export function describeIndex(index: IndexDefinition): Document {
  return {
    v: 2,
    key: index.key,
    name: index.name,
    ...(index.unique && index.name !== ID_INDEX.name && { unique: true }),
    ...(index.sparse && { sparse: true }),
    ...(index.partialFilterExpression && { partialFilterExpression: index.partialFilterExpression }),
  };
}

export function sameDefinition(a: IndexDefinition, b: IndexDefinition): boolean {
  return keyOf(a.key) === keyOf(b.key) && sameOptions(a, b);
}

export function sameOptions(a: IndexDefinition, b: IndexDefinition): boolean {
  return a.unique === b.unique && a.sparse === b.sparse && keyOf(a.partialFilterExpression ?? null) === keyOf(b.partialFilterExpression ?? null);
}

interface IndexEntry {
  /** Equal for two documents exactly when their keys collide. */
  token: string;
  keyValue: Document;
}

/** A unique index's entries: which document (by `_id` key) owns each key. */
export class UniqueIndex {
  private readonly owners = new Map<string, string>();
  private readonly matchesPartial: ((document: Document) => boolean) | undefined;

  constructor(
    readonly definition: IndexDefinition,
    private readonly namespace: string,
  ) {
    const partial = definition.partialFilterExpression;
    if (partial) {
      const query = new Query(partial, { scriptEnabled: false });
      this.matchesPartial = (document) => query.test(document);
    }
  }

  /** Throws E11000 when `document` (stored under `idKey`) would take a key another document owns. */
  check(idKey: string, document: Document): void {
    for (const entry of this.entriesOf(document)) {
      const owner = this.owners.get(entry.token);
      if (owner !== undefined && owner !== idKey) {
        throw duplicateKeyError(this.namespace, this.definition.name, this.definition.key, entry.keyValue);
      }
    }
  }

  add(idKey: string, document: Document): void {
    for (const entry of this.entriesOf(document)) this.owners.set(entry.token, idKey);
  }

  remove(idKey: string, document: Document): void {
    for (const entry of this.entriesOf(document)) {
      if (this.owners.get(entry.token) === idKey) this.owners.delete(entry.token);
    }
  }

  private entriesOf(document: Document): IndexEntry[] {
    if (this.matchesPartial && !this.matchesPartial(document)) return [];
    const fields = Object.keys(this.definition.key);
    const perField = fields.map((field) => keyValuesAt(document, field));
    if (this.definition.sparse && perField.every((values) => values === MISSING_ONLY)) return [];
    return combinations(perField).map((values) => {
      const keyValue = Object.fromEntries(fields.map((field, i) => [field, values[i]]));
      return { token: keyOf(values), keyValue };
    });
  }
}

/** The key values of a missing field. */
const MISSING_ONLY: unknown[] = [null];

/** A field's index keys: each array element separately (an empty array is `undefined`), a missing field `null`. */
function keyValuesAt(document: Document, field: string): unknown[] {
  const found = valuesAtPath(document, field);
  if (found.length === 0) return MISSING_ONLY;
  const keys = found.flatMap((value) => (Array.isArray(value) ? (value.length === 0 ? [undefined] : value) : [value]));
  return [...new Map(keys.map((key) => [keyOf(key) + (key === undefined ? 'u' : ''), key])).values()];
}

function combinations(lists: unknown[][]): unknown[][] {
  return lists.reduce<unknown[][]>((partial, values) => partial.flatMap((prefix) => values.map((value) => [...prefix, value])), [[]]);
}
