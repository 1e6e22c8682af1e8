/** Default limits of the lambda script host (kept apart so the CLI's help can name them without loading the host). */
export const LAMBDA_DEFAULTS = {
  /** Time limit of one call (and of loading the script's top level), in ms. */
  timeoutMs: 2_000,
  /** Heap limit of the script's process, and the most ArrayBuffer memory it may hold, in MB. */
  memoryMb: 128,
  /** What Node.js itself needs besides the script's heap and ArrayBuffers: the resident limit is 2 × memoryMb + this, in MB. */
  processOverheadMb: 128,
  /** Largest result of one call as JSON, in UTF-8 bytes. */
  maxResultBytes: 4 * 1024 * 1024,
} as const;

/** The default resident memory limit of the script's process for a heap limit of `memoryMb`. */
export function defaultMaxResidentMb(memoryMb: number): number {
  return 2 * memoryMb + LAMBDA_DEFAULTS.processOverheadMb;
}
