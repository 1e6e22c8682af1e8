import { parseFieldSelection, printFieldSelection } from '../../src/sdl/field-selection.js';

/** Federation `fields:` text → selection (or why not) → normal printed form. */

const accepted: Array<[string, boolean, string]> = [
  ['id', false, 'id'],
  ['sku  package', false, 'sku package'],
  ['sku, package', false, 'sku package'],
  ['sku variation { id }', true, 'sku variation { id }'],
  ['a { b { c } } d', true, 'a { b { c } } d'],
  ['\n  study {caseNumber}\n', true, 'study { caseNumber }'],
];
test.each(accepted)('%j (nested allowed: %s) prints as %j', (text, nested, printed) => {
  const parsed = parseFieldSelection(text, nested);
  if ('problem' in parsed) throw new Error(parsed.problem);
  expect(printFieldSelection(parsed.selection)).toBe(printed);
});

const refused: Array<[string, boolean, string]> = [
  ['variation { id }', false, 'selects inside variation; nested selections need Federation 2'],
  ['id id', true, 'names id twice'],
  ['a: id', true, 'aliases id; name fields only'],
  ['name(x: 1)', true, 'passes arguments to name'],
  ['name @skip(if: true)', true, 'puts a directive on name'],
  ['... on A { id }', true, 'uses a fragment; name fields only'],
  ['{ id }', true, 'is not a selection of fields (Expected Name, found "{".)'],
  ['id }', true, 'is not a selection of fields (Unexpected "}".)'],
  ['id } { x', true, 'is not a selection of fields'],
];
test.each(refused)('%j (nested allowed: %s) is refused: %s', (text, nested, problem) => {
  expect(parseFieldSelection(text, nested)).toEqual({ problem });
});
