/**
 * The CSV lines the PostGraphile comparison feeds to PostgreSQL's COPY (bench/postgres-load.ts): any title
 * must arrive as it is, whatever quotes, commas or line breaks it holds.
 */
import { csvLine } from '../../bench/postgres-load.js';

test.each<[string, Array<string | number | boolean>, string]>([
  ['plain values', ['65920080', 'urgent plan #1', 3, false], '"65920080","urgent plan #1","3","false"\n'],
  ['a comma', ['a, b'], '"a, b"\n'],
  ['quotes, doubled', ['say "hi"'], '"say ""hi"""\n'],
  ['a line break stays inside the quotes', ['two\nlines'], '"two\nlines"\n'],
  ['an empty string (not NULL)', [''], '""\n'],
  ['an ISO date-time', ['2024-01-01T00:00:00.000Z', true], '"2024-01-01T00:00:00.000Z","true"\n'],
])('csvLine: %s', (_, values, expected) => {
  expect(csvLine(values)).toBe(expected);
});
