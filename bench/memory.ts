/**
 * Resident set size for the benchmark's memory figures. The benchmark's processes run with `--expose-gc`
 * (bench/run.ts starts them so), so garbage left over from loading is collected before reading it.
 */
export const MIB = 1024 * 1024;

const collectGarbage = (globalThis as { gc?: () => void }).gc;

/** Whether `rssAfterGarbageCollection` really collects first (false when node ran without --expose-gc). */
export const canCollectGarbage = collectGarbage !== undefined;

export function rssAfterGarbageCollection(): number {
  collectGarbage?.();
  return process.memoryUsage().rss;
}
