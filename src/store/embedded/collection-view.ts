/**
 * What a read sees of one collection. Inside a transaction (or with none running) that is the current
 * state; a reader outside a running transaction sees the state before it (its earlier versions laid over
 * the current ones), so uncommitted writes are never visible outside their transaction.
 */
import type { Filter, StoredDocument } from '../port.js';
import type { CollectionState } from './collection-state.js';
import { candidateIds } from './query-planner.js';
import { encodeValue, isIndexableLiteral } from './index-keys.js';
import type { EarlierVersions } from './write-scope.js';

export class CollectionView {
  constructor(
    private readonly state: CollectionState | undefined,
    private readonly earlier: EarlierVersions | undefined,
  ) {}

  get(id: string): StoredDocument | undefined {
    if (this.earlier?.has(id)) return this.earlier.get(id);
    return this.state?.get(id);
  }

  size(): number {
    if (!this.earlier) return this.state?.size ?? 0;
    return this.all().length;
  }

  /** Every document in natural order. */
  all(): readonly StoredDocument[] {
    if (!this.state) return [];
    if (!this.earlier) return this.state.all();
    return this.withEarlier(this.state.all().map((document) => document._id));
  }

  /** A superset of the documents `filter` matches, in natural order (an index narrows it when it can). */
  candidates(filter: Filter): readonly StoredDocument[] {
    if (!this.state) return [];
    const ids = candidateIds(filter, this.state);
    if (!ids) return this.all();
    return this.withEarlier(ids);
  }

  /** Whether `byFieldValues` can answer for `field` (through `_id` or an index) rather than scan. */
  canLookUp(field: string): boolean {
    return field === '_id' || this.state?.lookupIndexFor(field) !== undefined;
  }

  /**
   * The documents whose `field` may equal one of `values`, found through `_id` or an index on `field`;
   * undefined when no index can answer (the caller then uses the whole collection).
   */
  byFieldValues(field: string, values: unknown[]): readonly StoredDocument[] | undefined {
    if (!this.state) return [];
    if (field === '_id') return this.withEarlier(values.filter((value): value is string => typeof value === 'string'));
    const index = this.state.lookupIndexFor(field);
    if (!index) return undefined;
    const canFindAbsent = index.spec.sparse !== true;
    const ids = new Set<string>();
    for (const value of values) {
      if (value === null || value === undefined) {
        if (!canFindAbsent) return undefined;
      } else if (!isIndexableLiteral(value) && typeof value !== 'object') {
        continue;
      }
      for (const id of index.idsWithKey(encodeValue(value)) ?? []) ids.add(id);
    }
    return this.withEarlier(ids);
  }

  /** Resolves ids through the earlier versions (adding every id they hold) and sorts by natural order. */
  private withEarlier(ids: Iterable<string>): StoredDocument[] {
    const state = this.state!;
    const unique = new Set(ids);
    if (this.earlier) for (const id of this.earlier.keys()) unique.add(id);
    const documents: StoredDocument[] = [];
    for (const id of unique) {
      const document = this.get(id);
      if (document) documents.push(document);
    }
    if (documents.length > 1) documents.sort((a, b) => state.positionOf(a._id) - state.positionOf(b._id));
    return documents;
  }
}
