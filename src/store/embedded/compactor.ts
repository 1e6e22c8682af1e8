/**
 * Compaction (the log folded into a snapshot) without stopping the store. Once a commit leaves the log
 * past its threshold (compaction-policy.ts: a floor, and a share of the last snapshot's size), the
 * compactor, between two units of work:
 *
 *   1. freezes the state as of that commit: each collection's documents (FrozenDocuments: nothing is copied;
 *      writes made while the snapshot is written hand over the versions they replace) and index specs;
 *   2. rotates the log: its records move to `wal.previous.log`, new commits go to a fresh `wal.log`;
 *
 * and then, while requests go on, writes the frozen state as the new snapshot in slices
 * (`writeSnapshotInBackground`: temporary file, fsync, rename) and finally deletes `wal.previous.log`.
 *
 * Durability is unchanged: every acknowledged record stays in a fsynced log until a durable snapshot
 * holds it. A crash before the rename leaves the old snapshot, the previous log and the log (replayed in
 * that order); after it, the new snapshot, whose sequence number makes replay skip the previous log.
 * An interrupted or failed compaction leaves `wal.previous.log`; the next one is then done at once,
 * synchronously, as is one on close (which compacts only then, or when the policy says it is due).
 */
import { performance } from 'node:perf_hooks';
import { compactionDue, type CompactionPolicy } from './compaction-policy.js';
import type { Database } from './database.js';
import { FrozenDocuments } from './frozen-documents.js';
import { writeSnapshot, writeSnapshotInBackground, type Snapshot } from './snapshot.js';
import { removePreviousLog, type WriteAheadLog } from './write-ahead-log.js';

export interface CompactionReport {
  documents: number;
  /** Milliseconds during which the compaction kept every request waiting. */
  blockedMs: number;
  /** Milliseconds from the start of the compaction until the snapshot was in place and the log emptied. */
  totalMs: number;
}

export interface CompactorOptions {
  /** When the log is large enough to compact. */
  policy: CompactionPolicy;
  /** Failures of a background compaction (the records stay durable in the logs). */
  onError: (error: Error) => void;
  onCompacted?: (report: CompactionReport) => void;
}

export class Compactor {
  private running: Promise<void> | undefined;
  /** A rotated log awaits a snapshot that holds it (set from rotation until its deletion). */
  private previousLogPending: boolean;

  /** `snapshotBytes`: the size of the snapshot the store was opened from (0: none). */
  constructor(
    private readonly dataDir: string,
    private readonly database: Database,
    private readonly log: WriteAheadLog,
    private readonly options: CompactorOptions,
    previousLogExists: boolean,
    private snapshotBytes: number,
  ) {
    this.previousLogPending = previousLogExists;
  }

  /** Whether the log has passed the threshold and no compaction runs. */
  get due(): boolean {
    return !this.running && compactionDue(this.log.sizeBytes, this.snapshotBytes, this.options.policy);
  }

  /** After the commit of record `seq`, with no unit in flight: compacts if it is due. */
  afterCommit(seq: number): void {
    if (!this.due) return;
    try {
      if (this.previousLogPending) this.compactNow(seq);
      else this.startInBackground(seq);
    } catch (error) {
      // The records are durable already; the log simply stays long until a later compaction succeeds.
      this.options.onError(error as Error);
    }
  }

  /** Everything up to `seq` into a snapshot, synchronously; then both logs are emptied. Call it between units of work, with none running in the background. */
  compactNow(seq: number): void {
    const started = performance.now();
    const snapshot = this.freeze(seq);
    try {
      this.snapshotBytes = writeSnapshot(this.dataDir, snapshot);
    } finally {
      releaseFrozen(snapshot);
    }
    removePreviousLog(this.dataDir);
    this.previousLogPending = false;
    this.log.clear();
    const elapsed = performance.now() - started;
    this.options.onCompacted?.({ documents: documentCount(snapshot), blockedMs: elapsed, totalMs: elapsed });
  }

  /** Whether a rotated log still awaits the snapshot that holds it. */
  get hasPreviousLog(): boolean {
    return this.previousLogPending;
  }

  /** Resolves once no background compaction is running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private startInBackground(seq: number): void {
    const started = performance.now();
    const snapshot = this.freeze(seq);
    this.log.rotate();
    this.previousLogPending = true;
    const blockedMs = performance.now() - started;
    this.running = writeSnapshotInBackground(this.dataDir, snapshot)
      .then((bytes) => {
        this.snapshotBytes = bytes;
        removePreviousLog(this.dataDir);
        this.previousLogPending = false;
        this.options.onCompacted?.({ documents: documentCount(snapshot), blockedMs, totalMs: performance.now() - started });
      })
      .catch((error: unknown) => this.options.onError(error as Error))
      .finally(() => {
        releaseFrozen(snapshot);
        this.running = undefined;
      });
  }

  /** The state as of now (the last commit), which later writes leave as it is. */
  private freeze(seq: number): Snapshot {
    return {
      seq,
      collections: this.database.all().map((state) => {
        const documents = state.freeze();
        return { name: state.name, indexes: [...state.indexSpecs()], count: documents.count, documents };
      }),
    };
  }
}

/** Ends the freezes of a snapshot whose writing stopped before reading them all. */
function releaseFrozen(snapshot: Snapshot): void {
  for (const collection of snapshot.collections) {
    if (collection.documents instanceof FrozenDocuments) collection.documents.release();
  }
}

function documentCount(snapshot: Snapshot): number {
  return snapshot.collections.reduce((total, collection) => total + collection.count, 0);
}
