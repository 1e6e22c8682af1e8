import type { SourceLocation } from '../sdl/model.js';
import type { Filter, Store, StoredDocument } from '../store/port.js';
import type { StoredDataProblemKind, StoredDataRisk } from './stored-data-risks.js';

/** A risk the store confirmed: some stored object matches it. */
export interface StoredDataProblem {
  kind: StoredDataProblemKind;
  type: string;
  field?: string;
  /** The `_id` of one stored object concerned, so the operator can look at it. */
  exampleId: string;
  /** Whether it refuses the upload unless the upload says `force`. */
  blocking: boolean;
  message: string;
  locations?: SourceLocation[];
}

/**
 * Asks the store about each risk with one existence query (`limit: 1`, only `_id` read): the cost is one
 * indexed-or-stopped-early read per changed field, never a scan of every object. A collection is first
 * asked whether it holds any object at all, once: every field of every type an upload adds is a risk (its
 * collection may hold objects an earlier upload kept), and nearly all of those collections are empty.
 * Questions run one after the other so a schema with many changes does not flood the store.
 */
export async function findStoredDataProblems(store: Store, risks: readonly StoredDataRisk[]): Promise<StoredDataProblem[]> {
  const problems: StoredDataProblem[] = [];
  const anyMatch = async (collection: string, filter: Filter): Promise<StoredDocument | undefined> => {
    const [example] = await store.collection(collection).find(filter, { limit: 1, projection: { _id: 1 } });
    return example;
  };
  /** Per collection, one of its objects, or undefined when it holds none. */
  const anyObject = new Map<string, StoredDocument | undefined>();
  for (const risk of risks) {
    if (!anyObject.has(risk.collection)) anyObject.set(risk.collection, await anyMatch(risk.collection, {}));
    const anyStored = anyObject.get(risk.collection);
    if (anyStored === undefined) continue;
    const example = isEmptyFilter(risk.filter) ? anyStored : await anyMatch(risk.collection, risk.filter);
    if (example === undefined) continue;
    problems.push({
      kind: risk.kind,
      type: risk.type,
      ...(risk.field === undefined ? {} : { field: risk.field }),
      exampleId: example._id,
      blocking: risk.blocking,
      message: `${risk.message} (one of them: ${JSON.stringify(example._id)})`,
      ...(risk.locations ? { locations: risk.locations } : {}),
    });
  }
  return problems;
}

function isEmptyFilter(filter: Filter): boolean {
  for (const _ in filter) return false;
  return true;
}
