/**
 * The in-memory state of one collection: documents by `_id` plus secondary indexes. Writes here are raw
 * (no constraint checks); `write-operations.ts` checks constraints before calling them, and replay and
 * rollback restore states that were already valid.
 */
import { DuplicateKeyError, type IndexSpec, type StoredDocument } from '../port.js';
import { CollectionIndex } from './collection-index.js';
import { FrozenDocuments } from './frozen-documents.js';
import { ID_ORDER, OrderedKeys, type KeyInOrder } from './ordered-keys.js';

export interface Slot {
  document: StoredDocument;
  /** Insertion sequence, so index-assisted reads return documents in the same order as a full scan. */
  position: number;
}

export const ID_INDEX_NAME = '_id_';

export class CollectionState {
  private readonly slots = new Map<string, Slot>();
  /** The slot at each natural-order position (a hole where a document was deleted). */
  private readonly byPosition: Array<Slot | undefined> = [];
  private readonly indexes = new Map<string, CollectionIndex>();
  private specs: readonly IndexSpec[] | undefined;
  private nextPosition = 0;
  private scanCache: StoredDocument[] | undefined;
  /** The ids in order, built on the first read sorted by `_id`, then kept up. */
  private orderedIds: OrderedKeys | undefined;
  /** The `_id` of the document created last, and whether every document created got an `_id` above the one before. */
  private lastCreatedId: string | undefined;
  private idsAscending = true;
  /** Freezes being read (see freeze); nearly always none. */
  private freezes: FrozenDocuments[] = [];

  constructor(readonly name: string) {}

  get size(): number {
    return this.slots.size;
  }

  get(id: string): StoredDocument | undefined {
    return this.slots.get(id)?.document;
  }

  /** The document of `id` and its place in natural order (read-only: the slot is the state's own). */
  slot(id: string): Readonly<Slot> | undefined {
    return this.slots.get(id);
  }

  /** The document at a natural-order position, if one is there. */
  documentAt(position: number): StoredDocument | undefined {
    return this.byPosition[position]?.document;
  }

  /** The ids ascending (`1`) or descending (`-1`). */
  idsInOrder(direction: 1 | -1): IterableIterator<KeyInOrder> {
    this.orderedIds ??= new OrderedKeys(this.slots.keys(), ID_ORDER);
    return this.orderedIds.inOrder(direction);
  }

  /**
   * Whether natural order is `_id` order: every document was created with an `_id` above the one created
   * before it (ObjectIds made in order are). Once broken it stays false; a reopened store works it out again.
   */
  get naturalOrderIsIdOrder(): boolean {
    return this.idsAscending;
  }

  /**
   * Whether every id in `ids` is new here and none repeats, known without a lookup: true when every document
   * was created with an `_id` above the one before (so every stored id is at or below the last created) and `ids` ascend
   * from above it. False means "not known": the caller looks the ids up.
   */
  newAscendingIds(ids: readonly string[]): boolean {
    if (!this.idsAscending) return false;
    let highest = this.lastCreatedId;
    for (const id of ids) {
      if (highest !== undefined && !(id > highest)) return false;
      highest = id;
    }
    return true;
  }

  /** Every natural-order position in use is below this. */
  get positionLimit(): number {
    return this.nextPosition;
  }

  /** All documents in natural (insertion) order; the array is shared until the next write. */
  all(): readonly StoredDocument[] {
    if (!this.scanCache) this.scanCache = Array.from(this.slots.values(), (slot) => slot.document);
    return this.scanCache;
  }

  /**
   * The documents as of now, in natural order, to be read later (a snapshot being written while writes go
   * on): taken in O(1), see FrozenDocuments. Release it if it is not read to the end.
   */
  freeze(): FrozenDocuments {
    const frozen = new FrozenDocuments(
      this.slots.size,
      this.nextPosition,
      (position) => this.byPosition[position]?.document,
      (released) => {
        this.freezes = this.freezes.filter((candidate) => candidate !== released);
      },
    );
    this.freezes.push(frozen);
    return frozen;
  }

  /** Freezes not yet read to the end nor released: each makes writes hand it the versions they replace. */
  get openFreezes(): number {
    return this.freezes.length;
  }

  put(document: StoredDocument): void {
    const slot = this.slots.get(document._id);
    if (slot) {
      for (const index of this.indexes.values()) index.remove(slot.document, slot.position);
      this.keepFrozen(slot);
      slot.document = document;
    }
    const { position } = slot ?? this.newSlot(document);
    for (const index of this.indexes.values()) index.add(document, position);
    this.scanCache = undefined;
  }

  /** `put` of a document whose `_id` the collection does not hold (the caller has checked): one lookup fewer. */
  insertNew(document: StoredDocument): void {
    const { position } = this.newSlot(document);
    for (const index of this.indexes.values()) index.add(document, position);
    this.scanCache = undefined;
  }

  remove(id: string): void {
    const slot = this.slots.get(id);
    if (!slot) return;
    for (const index of this.indexes.values()) index.remove(slot.document, slot.position);
    this.deleteSlot(slot);
    this.scanCache = undefined;
  }

  private newSlot(document: StoredDocument): Slot {
    const slot = { document, position: this.nextPosition++ };
    if (this.lastCreatedId !== undefined && document._id <= this.lastCreatedId) this.idsAscending = false;
    this.lastCreatedId = document._id;
    this.slots.set(document._id, slot);
    this.byPosition[slot.position] = slot;
    this.orderedIds?.insert(document._id);
    return slot;
  }

  /** Before `slot`'s document is replaced or removed: freezes still to read it keep the version it had. */
  private keepFrozen(slot: Slot): void {
    for (const frozen of this.freezes) frozen.keep(slot);
  }

  private deleteSlot(slot: Slot): void {
    this.keepFrozen(slot);
    this.slots.delete(slot.document._id);
    this.byPosition[slot.position] = undefined;
    this.orderedIds?.delete(slot.document._id);
  }

  /**
   * Restores the given documents to their earlier versions (`undefined`: did not exist). All of them
   * leave the indexes first, so restoring one never collides with another's not yet restored key.
   */
  restore(earlier: ReadonlyMap<string, StoredDocument | undefined>): void {
    for (const id of earlier.keys()) {
      const slot = this.slots.get(id);
      if (slot) for (const index of this.indexes.values()) index.remove(slot.document, slot.position);
    }
    for (const [id, document] of earlier) {
      const slot = this.slots.get(id);
      if (!document) {
        if (slot) this.deleteSlot(slot);
        continue;
      }
      if (slot) {
        this.keepFrozen(slot);
        slot.document = document;
      }
      const { position } = slot ?? this.newSlot(document);
      for (const index of this.indexes.values()) index.add(document, position);
    }
    this.scanCache = undefined;
  }

  /** The specs of the indexes, shared until the indexes change (every read plans with them). */
  indexSpecs(): readonly IndexSpec[] {
    this.specs ??= Array.from(this.indexes.values(), (index) => index.spec);
    return this.specs;
  }

  index(name: string): CollectionIndex | undefined {
    return this.indexes.get(name);
  }

  /** The index that can look up equality on `field`, preferring a unique one. */
  lookupIndexFor(field: string): CollectionIndex | undefined {
    let found: CollectionIndex | undefined;
    for (const index of this.indexes.values()) {
      if (index.lookupField !== field) continue;
      if (index.unique) return index;
      found ??= index;
    }
    return found;
  }

  uniqueIndexes(): CollectionIndex[] {
    return Array.from(this.indexes.values()).filter((index) => index.unique);
  }

  /**
   * Builds (without attaching) an index over the current documents. With `enforceUnique`, existing
   * duplicates make it fail with DuplicateKeyError.
   */
  buildIndex(spec: IndexSpec, enforceUnique: boolean): CollectionIndex {
    const index = new CollectionIndex(spec, (position) => this.byPosition[position]?.document._id);
    for (const { document, position } of this.slots.values()) {
      if (enforceUnique && index.unique) {
        const conflict = index.findConflict(document._id, index.keysOf(document));
        if (conflict) throw new DuplicateKeyError(this.name, conflict.field, conflict.value);
      }
      index.add(document, position);
    }
    return index;
  }

  attachIndex(index: CollectionIndex): void {
    this.indexes.set(index.spec.name, index);
    this.specs = undefined;
  }

  addIndex(spec: IndexSpec, enforceUnique: boolean): void {
    this.attachIndex(this.buildIndex(spec, enforceUnique));
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.specs = undefined;
  }
}
