import { fingerprint64 } from '../../src/sdl/farm-fingerprint.js';

/** FarmHash Fingerprint64 against the published test vectors (go-farm's farmhash_test.go, the `oh64na` column). */
describe('fingerprint64', () => {
  test.each<[string, bigint]>([
    ['', 0x9ae16a3b2f90404fn],
    ['a', 0xb3454265b6df75e3n],
    ['ab', 0xaa8d6e5242ada51en],
    ['abc', 0x24a5b3a074e7f369n],
    ['abcd', 0x1a5502de4a1f8101n],
    ['abcdefg', 0x3c40c92b1ccb7355n],
    ['abcdefgh', 0xfee9d22990c82909n],
    ['0123456789', 0xad052244b781c4ebn],
    ["0123456789'01234", 0x4283d4ef43627f64n],
    ['0123456789=012345', 0x46a7416ed4861e3bn],
    ['0123456789%0123456789£', 0x4dbd128af51d77e8n],
    ['C is as portable as Stonehedge!!', 0xb944f8a16261e414n],
    ['Discard medicine more than two years old.', 0xe8f89ab6df9bdd25n],
    ['The days of the digital watch are numbered.  -Tom Stoppard', 0x2a578b80bb82147cn],
  ])('%j', (text, expected) => {
    expect(fingerprint64(text)).toBe(expected);
  });

  it('refuses more than 64 bytes', () => {
    expect(() => fingerprint64('x'.repeat(65))).toThrow('fingerprint64 takes at most 64 bytes, got 65');
  });
});
