/**
 * What the registry reports while subscriptions run, for whoever watches it (server/ wires the metrics).
 * live/ knows nothing of metrics; every method is optional.
 */
export interface LiveListener {
  /** The number of running subscriptions changed to `count`. */
  runningChanged?(count: number): void;
  /** A shared execution ran again after a change to what it reads (its first run is not counted). */
  rerun?(): void;
  /** A result was handed to a subscriber's connection. */
  resultDelivered?(): void;
  /** A run's result equalled the last one sent to that subscriber, so nothing was sent. */
  resultUnchanged?(): void;
  /** A subscription was refused before it started; `code` is its error's `extensions.code`. */
  refused?(code: string): void;
}
