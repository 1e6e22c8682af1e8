import type { SourceLocation } from '../sdl/model.js';
import type { Store } from '../store/port.js';
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
 * indexed-or-stopped-early read per changed field, never a scan of every object. Risks run one after the
 * other so a schema with many changes does not flood the store.
 */
export async function findStoredDataProblems(store: Store, risks: readonly StoredDataRisk[]): Promise<StoredDataProblem[]> {
  const problems: StoredDataProblem[] = [];
  for (const risk of risks) {
    const [example] = await store.collection(risk.collection).find(risk.filter, { limit: 1, projection: { _id: 1 } });
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
