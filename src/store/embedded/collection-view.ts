/**
 * What a read sees of one collection. Inside a transaction (or with none running) that is the current
 * state; a reader outside a running transaction sees the state before it (its earlier versions laid over
 * the current ones), so uncommitted writes are never visible outside their transaction.
 */
import type { Filter, StoredDocument } from '../port.js';
import type { CollectionState } from './collection-state.js';
import { planAccess } from './access-plan.js';
import { encodeValue, isIndexableLiteral } from './index-keys.js';
import { skipsDocuments } from './collection-index.js';
import { candidatePositions } from './run-access-plan.js';
import { unionAll } from './sorted-positions.js';
import type { EarlierVersions } from './write-scope.js';

/** Documents in natural order, read by their index in the sequence (undefined for a hole left by a removal). */
export interface DocumentSequence {
  readonly length: number;
  at(index: number): StoredDocument | undefined;
}

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

  /**
   * The collection's state when this view sees exactly it (no running transaction's earlier versions laid
   * over it), so that its indexes answer for this view; undefined otherwise or when there is no collection.
   */
  get current(): CollectionState | undefined {
    return this.earlier !== undefined && this.earlier.size > 0 ? undefined : this.state;
  }

  /**
   * A superset of the documents `filter` matches, in natural order (the indexes narrow it when they can),
   * and the part of `filter` those documents still have to be tested against.
   */
  select(filter: Filter): { documents: readonly StoredDocument[]; residual: Filter } {
    if (!this.state) return { documents: [], residual: filter };
    const plan = planAccess(filter, undefined, this.state.indexSpecs());
    const positions = candidatePositions(plan, this.state);
    if (!positions) return { documents: this.all(), residual: filter };
    // Earlier versions come from a running transaction's undo log, not from the indexes (which show its
    // writes): they must meet the whole filter.
    if (this.current) return { documents: this.documentsAt(positions), residual: plan.residual };
    return { documents: this.withEarlier(this.idsAt(positions)), residual: filter };
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
    const canFindAbsent = !skipsDocuments(index.spec);
    const postings: (readonly number[])[] = [];
    for (const value of values) {
      if (value === null || value === undefined) {
        if (!canFindAbsent) return undefined;
      } else if (!isIndexableLiteral(value) && typeof value !== 'object') {
        continue;
      }
      postings.push(index.positionsWithKey(encodeValue(value)));
    }
    const positions = unionAll(postings);
    return this.current ? this.documentsAt(positions) : this.withEarlier(this.idsAt(positions));
  }

  private documentsAt(positions: readonly number[]): StoredDocument[] {
    const documents: StoredDocument[] = [];
    for (const position of positions) {
      const document = this.state!.documentAt(position);
      if (document) documents.push(document);
    }
    return documents;
  }

  private idsAt(positions: readonly number[]): string[] {
    return this.documentsAt(positions).map((document) => document._id);
  }

  /** Whether the documents this view reads in natural order are also in `_id` order (see CollectionState). */
  get naturalOrderIsIdOrder(): boolean {
    return this.current?.naturalOrderIsIdOrder ?? false;
  }

  /**
   * The documents whose `field` may hold the string `key`, in natural order, from the postings of `_id` or
   * of an index on `field`, read one at a time (a page needs only its first few); undefined when no index
   * can answer, or when a running transaction's earlier versions must be laid over the current state
   * (`byFieldValues` does that).
   */
  documentsHolding(field: string, key: string): DocumentSequence | undefined {
    if (this.earlier !== undefined && this.earlier.size > 0) return undefined;
    const state = this.state;
    if (!state) return { length: 0, at: () => undefined };
    if (field === '_id') {
      const document = state.get(key);
      return { length: document ? 1 : 0, at: () => document };
    }
    const index = state.lookupIndexFor(field);
    if (!index) return undefined;
    const positions = index.positionsWithKey(encodeValue(key));
    return { length: positions.length, at: (i) => state.documentAt(positions[i]!) };
  }

  /** Resolves ids through the earlier versions (adding every id they hold) and sorts by natural order. */
  private withEarlier(ids: Iterable<string>): StoredDocument[] {
    const state = this.state!;
    const earlier = this.earlier !== undefined && this.earlier.size > 0 ? this.earlier : undefined;
    let unique = ids;
    if (earlier || !(ids instanceof Set)) {
      const copy = new Set(ids);
      if (earlier) for (const id of earlier.keys()) copy.add(id);
      unique = copy;
    }
    const documents: StoredDocument[] = [];
    const positions: number[] = [];
    for (const id of unique) {
      const slot = state.slot(id);
      const document = earlier?.has(id) ? earlier.get(id) : slot?.document;
      if (!document) continue;
      documents.push(document);
      // A document the running transaction deleted has no place any more: after all others.
      positions.push(slot?.position ?? Number.MAX_SAFE_INTEGER);
    }
    return inNaturalOrder(documents, positions, state.positionLimit);
  }
}

/**
 * `documents` ordered by their `positions` (distinct below `limit`; any at or above it last, in the order
 * given). Many documents are placed by position in one pass over the positions in use; few are sorted.
 */
function inNaturalOrder(documents: StoredDocument[], positions: number[], limit: number): StoredDocument[] {
  const count = documents.length;
  if (count <= 1) return documents;
  const placeless: StoredDocument[] = [];
  if (count * Math.log2(count) > limit) {
    const byPosition: Array<StoredDocument | undefined> = new Array(limit);
    for (let i = 0; i < count; i++) {
      if (positions[i]! < limit) byPosition[positions[i]!] = documents[i];
      else placeless.push(documents[i]!);
    }
    const ordered: StoredDocument[] = [];
    for (const document of byPosition) if (document) ordered.push(document);
    return placeless.length === 0 ? ordered : ordered.concat(placeless);
  }
  const order = Array.from(documents.keys()).sort((a, b) => positions[a]! - positions[b]!);
  return order.map((i) => documents[i]!);
}
