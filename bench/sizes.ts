/** Task counts for the benchmarks that run at several sizes: BENCH_SIZES, comma-separated, or a fallback. */
export function sizesFrom(text: string | undefined, fallback: number[]): number[] {
  if (text === undefined || text.trim() === '') return fallback;
  const sizes = text.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
  const wrong = sizes.find((size) => !Number.isInteger(size) || size < 100);
  if (wrong !== undefined) throw new Error(`BENCH_SIZES must list task counts (integers ≥ 100) separated by commas, got "${text}"`);
  return sizes;
}
