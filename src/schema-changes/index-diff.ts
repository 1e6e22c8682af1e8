import type { SchemaModel } from '../sdl/model.js';
import { indexesFor } from '../store/indexes.js';

export interface IndexDiff {
  /** `<collection>.<index name>`, as an activation reports them, e.g. `Task.ag_search_title`. */
  created: string[];
  dropped: string[];
}

/** The service's indexes an activation of `next` creates and drops when `previous` is served. Pure. */
export function diffIndexes(previous: SchemaModel | undefined, next: SchemaModel): IndexDiff {
  const before = indexNames(previous);
  const after = indexNames(next);
  return {
    created: [...after].filter((name) => !before.has(name)),
    dropped: [...before].filter((name) => !after.has(name)),
  };
}

function indexNames(model: SchemaModel | undefined): Set<string> {
  const names = new Set<string>();
  if (model === undefined) return names;
  for (const [collection, specs] of indexesFor(model)) {
    for (const spec of specs) names.add(`${collection}.${spec.name}`);
  }
  return names;
}
