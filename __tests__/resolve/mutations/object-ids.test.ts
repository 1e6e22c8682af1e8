import { ObjectId } from 'mongodb';
import { newObjectId, objectIdSource } from '../../../src/resolve/mutations/object-ids.js';

/** The ids of new objects: ObjectId text, ascending in the order they are made. */
describe('objectIdSource', () => {
  const at = (ms: number) => () => ms;

  const CASES: Array<[string, string, number, number, string]> = [
    ['the time, the process part, the counter after its start', '0a1b2c3d4e', 0, 1_700_000_000_123, '6553f1000a1b2c3d4e000001'],
    ['a counter with no leading zeros', 'ffffffffff', 0xabcdef - 1, 1_000, '00000001ffffffffffabcdef'],
    ['the counter wraps to zero after ffffff', '0000000000', 0xffffff, 0, '000000000000000000000000'],
    ['a start beyond three bytes is taken modulo', '0000000000', 0x1000000 + 4, 0, '000000000000000000000005'],
  ];

  test.each(CASES)('%s', (_name, processPart, counterStart, nowMs, expected) => {
    expect(objectIdSource(processPart, counterStart, at(nowMs))()).toBe(expected);
  });

  test('ids made one after another ascend, within a second and across seconds', () => {
    let now = 1_700_000_000_000;
    const next = objectIdSource('0123456789', 5, () => now);
    const ids = [next(), next()];
    now += 1_000;
    ids.push(next(), next());
    expect(ids).toEqual(['6553f1000123456789000006', '6553f1000123456789000007', '6553f1010123456789000008', '6553f1010123456789000009']);
    expect([...ids].sort()).toEqual(ids);
  });

  test('the process source makes valid ObjectIds of the current time, each different', () => {
    const before = Math.floor(Date.now() / 1000);
    const ids = Array.from({ length: 1000 }, () => newObjectId());
    const after = Math.floor(Date.now() / 1000);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(new ObjectId(id).toHexString()).toBe(id);
      const seconds = new ObjectId(id).getTimestamp().getTime() / 1000;
      expect(seconds).toBeGreaterThanOrEqual(before);
      expect(seconds).toBeLessThanOrEqual(after);
    }
  });

  test('refuses a process part that is not 10 hex digits', () => {
    expect(() => objectIdSource('xyz', 0)).toThrow('the process part of an ObjectId is 10 hex digits, got "xyz"');
  });
});
