/**
 * One collection's documents as of a moment, taken without copying them (CollectionState.freeze): the
 * freeze notes how many positions were in use, and a write afterwards hands it the version a slot held
 * before the write replaced or removed it, for the positions the reader has not reached yet. Documents
 * are never changed in place, so every other position still shows the frozen version. Taking it costs
 * nothing per document (a compaction of a million documents used to hold every request while it copied
 * a pointer per document); the cost moves to the writes made while it is read, one map entry per
 * document they change.
 */
import type { StoredDocument } from '../port.js';
import type { Slot } from './collection-state.js';

export class FrozenDocuments implements Iterable<StoredDocument> {
  /** The version of each changed position (undefined: it held none) as of the freeze. */
  private readonly earlier = new Map<number, StoredDocument | undefined>();
  /** Positions below this were read already. */
  private cursor = 0;
  private iterated = false;
  private released = false;

  /**
   * `count` documents at positions below `limit`, found at `atPosition` as long as nothing changed them.
   * `release` is called once reading ends (or is given up), so later writes stop handing versions over.
   */
  constructor(
    readonly count: number,
    private readonly limit: number,
    private readonly atPosition: (position: number) => StoredDocument | undefined,
    private readonly onRelease: (frozen: FrozenDocuments) => void,
  ) {}

  /** How many earlier versions writes have handed over and the reader has not reached (what it costs in memory). */
  get heldVersions(): number {
    return this.earlier.size;
  }

  /** Called before a write replaces or removes the document in `slot`. */
  keep(slot: Slot): void {
    const { position } = slot;
    if (position >= this.limit || position < this.cursor || this.earlier.has(position)) return;
    this.earlier.set(position, slot.document);
  }

  /** The documents in natural order; can be read once, and releases the freeze when done. */
  *[Symbol.iterator](): Iterator<StoredDocument> {
    if (this.iterated) throw new Error('frozen documents can be read only once');
    if (this.released) throw new Error('frozen documents were released before they were read');
    this.iterated = true;
    let read = 0;
    try {
      for (; this.cursor < this.limit; this.cursor++) {
        const position = this.cursor;
        const document = this.earlier.has(position) ? this.earlier.get(position) : this.atPosition(position);
        this.earlier.delete(position);
        if (document === undefined) continue;
        read++;
        yield document;
      }
      if (read !== this.count) throw new Error(`frozen documents: read ${read}, expected ${this.count}`);
    } finally {
      this.release();
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.earlier.clear();
    this.onRelease(this);
  }
}
