/**
 * How deep objects and lists nest in a JSON value (`{ "not": { "not": {} } }` is 3; a scalar is 0),
 * measured with an explicit stack: a variable's value arrives already parsed and may be nested far deeper
 * than any recursive walk could follow.
 */
export function valueDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const containers: object[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const current = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(current)) {
      for (const item of current) {
        if (typeof item === 'object' && item !== null) {
          containers.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    // Own keys by `for...in`: no array of the values per object (an add of 100 objects walks 200).
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const item: unknown = (current as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) {
        containers.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}
