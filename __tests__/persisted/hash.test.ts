import { isSha256Hex, sha256Hex, utf8Bytes } from '../../src/persisted/hash.js';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

test.each([
  ['', EMPTY_SHA256],
  ['{ hello }', '001c3174e099bd72b729d0c0a529ba9f5a740c446e2a6e1d71b283cb84ec3065'],
  ['é', '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c'],
])('sha256Hex(%j)', (text, expected) => {
  expect(sha256Hex(text)).toBe(expected);
});

test.each([
  [EMPTY_SHA256, true],
  [EMPTY_SHA256.toUpperCase(), true],
  [EMPTY_SHA256.slice(1), false],
  [`${EMPTY_SHA256}0`, false],
  [`x${EMPTY_SHA256}`, false],
  [`${EMPTY_SHA256}x`, false],
  [`${EMPTY_SHA256.slice(1)}g`, false],
  ['', false],
  [42, false],
  [null, false],
  [[EMPTY_SHA256], false],
])('isSha256Hex(%j) is %s', (value, expected) => {
  expect(isSha256Hex(value)).toBe(expected);
});

test.each([
  ['', 0],
  ['abc', 3],
  ['é', 2],
  ['€', 3],
  ['😀', 4],
])('utf8Bytes(%j) is %d', (text, expected) => {
  expect(utf8Bytes(text)).toBe(expected);
});
