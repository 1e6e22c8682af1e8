import type { IndexDescriptionInfo } from 'mongodb';
import type { IndexSpec } from '../port.js';

/** An index as MongoDB lists it; keys may hold values the port cannot express (`text`, `hashed`). */
export interface ExistingIndex {
  name: string;
  keys: Record<string, unknown>;
  unique: boolean;
  sparse: boolean;
  partialFilterExpression?: Record<string, unknown>;
}

export interface IndexSyncPlan {
  /** Obsolete or changed indexes of ours (the store creates new names before it drops these). */
  drop: string[];
  create: IndexSpec[];
}

export function existingIndexFrom(info: IndexDescriptionInfo): ExistingIndex {
  return {
    name: String(info.name),
    keys: { ...info.key },
    unique: info.unique === true,
    sparse: info.sparse === true,
    ...(info.partialFilterExpression && { partialFilterExpression: { ...(info.partialFilterExpression as Record<string, unknown>) } }),
  };
}

/** The port's view of an index, or undefined for one it cannot express (text, hashed, geo). */
export function indexSpecFrom(index: ExistingIndex): IndexSpec | undefined {
  const keys: Record<string, 1 | -1> = {};
  for (const [field, direction] of Object.entries(index.keys)) {
    if (direction !== 1 && direction !== -1) {
      return undefined;
    }
    keys[field] = direction;
  }
  const spec: IndexSpec = { name: index.name, keys };
  if (index.unique) {
    spec.unique = true;
  }
  if (index.sparse) {
    spec.sparse = true;
  }
  if (index.partialFilterExpression) {
    spec.partialFilterExpression = index.partialFilterExpression;
  }
  return spec;
}

/** Checks the wanted specs before anything is dropped, so a bad spec never costs an existing index. */
export function validateIndexSpecs(collection: string, specs: IndexSpec[], prefix: string): void {
  if (prefix === '') {
    throw new Error(`syncIndexes(${collection}): the prefix must not be empty (it would claim every index)`);
  }
  const seen = new Set<string>();
  for (const spec of specs) {
    if (!spec.name.startsWith(prefix)) {
      throw new Error(`syncIndexes(${collection}): index "${spec.name}" does not start with the prefix "${prefix}"`);
    }
    if (seen.has(spec.name)) {
      throw new Error(`syncIndexes(${collection}): index "${spec.name}" is listed twice`);
    }
    seen.add(spec.name);
    if (spec.sparse && spec.partialFilterExpression) {
      throw new Error(`syncIndexes(${collection}): index "${spec.name}" cannot be both sparse and partial (MongoDB refuses the mix)`);
    }
    const entries = Object.entries(spec.keys);
    if (entries.length === 0) {
      throw new Error(`syncIndexes(${collection}): index "${spec.name}" has no keys`);
    }
    for (const [field, direction] of entries) {
      if (direction !== 1 && direction !== -1) {
        throw new Error(
          `syncIndexes(${collection}): index "${spec.name}" key "${field}" must be 1 or -1, got ${JSON.stringify(direction)}`,
        );
      }
    }
  }
}

export function planIndexSync(existing: ExistingIndex[], wanted: IndexSpec[], prefix: string): IndexSyncPlan {
  const wantedByName = new Map(wanted.map((spec) => [spec.name, spec]));
  const ours = existing.filter((index) => index.name.startsWith(prefix));
  const drop = ours
    .filter((index) => {
      const spec = wantedByName.get(index.name);
      return spec === undefined || !sameDefinition(index, spec);
    })
    .map((index) => index.name);
  const kept = new Set(ours.map((index) => index.name).filter((name) => !drop.includes(name)));
  const create = wanted.filter((spec) => !kept.has(spec.name));
  return { drop, create };
}

function sameDefinition(index: ExistingIndex, spec: IndexSpec): boolean {
  const existingKeys = Object.entries(index.keys);
  const wantedKeys = Object.entries(spec.keys);
  return (
    existingKeys.length === wantedKeys.length &&
    existingKeys.every(([field, direction], position) => {
      const [wantedField, wantedDirection] = wantedKeys[position];
      return field === wantedField && direction === wantedDirection;
    }) &&
    index.unique === (spec.unique === true) &&
    index.sparse === (spec.sparse === true) &&
    JSON.stringify(index.partialFilterExpression ?? null) === JSON.stringify(spec.partialFilterExpression ?? null)
  );
}
