/**
 * When the log is folded into a new snapshot. A compaction rewrites the whole store, so under a fixed log
 * threshold its cost per logged byte grows with the store: at a million objects a 32 MiB threshold rewrote
 * a snapshot of over 200 MiB (serialised on the event loop, between requests) for every 32 MiB of writes.
 * As Redis does for its append-only file (`auto-aof-rewrite-percentage` over the size after the last
 * rewrite, with `auto-aof-rewrite-min-size` as a floor), the log must also have grown to a share of the
 * last snapshot's size: each byte written then costs a bounded amount of compaction work whatever the size
 * of the store, at the price of a log up to that share of the snapshot to replay on restart.
 */
export interface CompactionPolicy {
  /** Never compact a log of this many bytes or fewer. */
  minLogBytes: number;
  /** Nor one smaller than this share of the last snapshot's size (0: the floor alone decides). */
  snapshotShare: number;
}

export function compactionDue(logBytes: number, snapshotBytes: number, policy: CompactionPolicy): boolean {
  return logBytes > policy.minLogBytes && logBytes >= snapshotBytes * policy.snapshotShare;
}
