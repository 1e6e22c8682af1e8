/**
 * How deep objects and lists nest in a JSON value (`{ "not": { "not": {} } }` is 3; a scalar is 0),
 * measured with an explicit stack: a variable's value arrives already parsed and may be nested far deeper
 * than any recursive walk could follow. Stops once `stopAbove` is passed, so a huge value costs no more
 * than reaching that depth.
 */
export function valueDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const here = depth + 1;
    if (here > deepest) {
      deepest = here;
      if (deepest > stopAbove) return deepest;
    }
    for (const item of Array.isArray(current) ? current : Object.values(current)) pending.push([item, here]);
  }
  return deepest;
}
