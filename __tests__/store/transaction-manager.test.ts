import { TransactionManager } from '../../src/store/embedded/transaction-manager.js';

/**
 * A unit's commit (the log record's fsync) may take a while off the event loop. Until it has settled the
 * unit stays the running one, so the embedded store's readers keep seeing the state before it (they lay
 * the running unit's earlier versions over the current state) and the next unit waits.
 */
describe('TransactionManager with a commit that settles later', () => {
  it('keeps the unit running until its commit settles, and starts the next one only then', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    let settle!: () => void;
    const first = manager.run(
      'first',
      () => events.push('first work'),
      () => new Promise<void>((resolve) => (settle = resolve)),
      () => events.push('first rollback'),
    );
    const second = manager.run('second', () => events.push('second work'), () => undefined, () => undefined);
    while (!settle) await new Promise((resolve) => setImmediate(resolve));
    const committing = manager.active;
    expect(committing?.handle.id).toBe(1); // the first unit, still running while its commit settles
    await new Promise((resolve) => setImmediate(resolve));
    expect(manager.active).toBe(committing);
    expect(events).toEqual(['first work']);

    settle();
    await first;
    await second;
    expect(events).toEqual(['first work', 'second work']);
    expect(manager.active).toBeUndefined();
  });

  it('rolls the unit back when its commit fails, and reports the failure', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const failing = manager.run(
      'failing',
      () => events.push('work'),
      () => Promise.reject(new Error('EIO: i/o error, fsync')),
      () => events.push('rollback'),
    );
    await expect(failing).rejects.toThrow('EIO: i/o error, fsync');
    expect(events).toEqual(['work', 'rollback']);
    expect(manager.active).toBeUndefined();
  });
});
