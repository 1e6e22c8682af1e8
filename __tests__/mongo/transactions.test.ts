import type { ClientSession } from 'mongodb';
import { TransactionRegistry } from '../../src/store/mongo/transactions.js';

describe('TransactionRegistry', () => {
  it('hands out distinct handles and resolves each to its own session', () => {
    const registry = new TransactionRegistry();
    const sessionA = { label: 'a' } as unknown as ClientSession;
    const a = registry.begin(sessionA);
    const b = registry.begin(undefined);
    expect(a.id).not.toBe(b.id);
    expect(registry.sessionOf(a)).toBe(sessionA);
    expect(registry.sessionOf(b)).toBeUndefined();
    expect(registry.sessionOf(undefined)).toBeUndefined();
  });

  it('refuses a handle after its transaction ended', () => {
    const registry = new TransactionRegistry();
    const tx = registry.begin(undefined);
    registry.end(tx);
    expect(() => registry.sessionOf(tx)).toThrow(`transaction ${tx.id} is not running`);
  });

  it('refuses a handle it never issued', () => {
    expect(() => new TransactionRegistry().sessionOf({ id: 42 })).toThrow('transaction 42 is not running');
  });
});
