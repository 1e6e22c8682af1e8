import { ObjectId } from 'mongodb';
import { newObjectIdText } from '../../src/resolve/mutations/new-object-id.js';

/** newObjectIdText: an ObjectId's usual text, ascending with the driver's own ObjectIds made around it. */
describe('newObjectIdText', () => {
  test('24 lowercase hex digits that read back as the same ObjectId, made now', () => {
    const before = Math.floor(Date.now() / 1000);
    const text = newObjectIdText();
    const after = Math.floor(Date.now() / 1000);
    expect(text).toMatch(/^[0-9a-f]{24}$/);
    const id = new ObjectId(text);
    expect(id.toHexString()).toBe(text);
    expect(id.getTimestamp().getTime() / 1000).toBeGreaterThanOrEqual(before);
    expect(id.getTimestamp().getTime() / 1000).toBeLessThanOrEqual(after);
  });

  test('ids made one after another, mixed with the driver\'s, ascend and never repeat', () => {
    const made = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? new ObjectId().toHexString() : newObjectIdText()));
    expect(new Set(made).size).toBe(made.length);
    expect(made.every((id, i) => i === 0 || made[i - 1]! < id)).toBe(true);
  });

  test('shares the process-unique part of the driver\'s ids', () => {
    expect(newObjectIdText().slice(8, 18)).toBe(new ObjectId().toHexString().slice(8, 18));
  });
});
