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

/**
 * Pipelined units: the next unit works while the record of the one before is being made durable, and
 * writes its own only after that. A failed fsync undoes the unit and the one built on it, the later first.
 */
describe('TransactionManager with pipelined units', () => {
  /** A commit that settles when the test says so. */
  function heldCommit(events: string[], name: string) {
    let settle!: (error?: Error) => void;
    const committed = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
    return {
      commit: () => {
        events.push(`${name} commit`);
        return committed;
      },
      settle: (error?: Error) => settle(error),
    };
  }
  const turns = async (count = 5) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('runs the next unit\'s work during the commit of the one before, and commits it only once that one is durable', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const first = heldCommit(events, 'first');
    const second = heldCommit(events, 'second');
    const one = manager.run('first', () => events.push('first work'), first.commit, () => events.push('first rollback'), 'pipelined')
      .then(() => events.push('first acknowledged'));
    const two = manager.run('second', () => events.push('second work'), second.commit, () => events.push('second rollback'), 'pipelined')
      .then(() => events.push('second acknowledged'));
    await turns();
    expect(events).toEqual(['first work', 'first commit', 'second work']);
    first.settle();
    await turns();
    expect(events.slice(0, 3)).toEqual(['first work', 'first commit', 'second work']);
    expect(events.slice(3).sort()).toEqual(['first acknowledged', 'second commit']);
    second.settle();
    await Promise.all([one, two]);
    expect(events.slice(5)).toEqual(['second acknowledged']);
    expect(manager.active).toBeUndefined();
  });

  it('hides the committing unit and the running one from readers (the version before the older one wins)', async () => {
    const manager = new TransactionManager();
    const first = heldCommit([], 'first');
    let secondWorked!: () => void;
    const secondWorking = new Promise<void>((resolve) => (secondWorked = resolve));
    let finishSecond!: () => void;
    const one = manager.run('first', (scope) => {
      scope.remember('T', 'a', { _id: 'a', v: 0 });
      scope.remember('T', 'b', undefined);
    }, first.commit, () => undefined, 'pipelined');
    const two = manager.run('second', async (scope) => {
      scope.remember('T', 'a', { _id: 'a', v: 1 });
      scope.remember('T', 'c', { _id: 'c', v: 1 });
      secondWorked();
      await new Promise<void>((resolve) => (finishSecond = resolve));
    }, () => undefined, () => undefined, 'pipelined');
    await secondWorking;
    expect(Object.fromEntries(manager.hiddenVersions('T')!)).toEqual({ a: { _id: 'a', v: 0 }, b: undefined, c: { _id: 'c', v: 1 } });
    expect(manager.hiddenVersions('Other')).toBeUndefined();
    first.settle();
    finishSecond();
    await Promise.all([one, two]);
    expect(manager.hiddenVersions('T')).toBeUndefined();
  });

  it('when a commit fails during the next unit\'s work, undoes the next unit and then the failed one, and fails both', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const first = heldCommit(events, 'first');
    let finishSecond!: () => void;
    const one = manager.run('first', () => events.push('first work'), first.commit, () => events.push('first rollback'), 'pipelined');
    const two = manager.run('second unit', async () => {
      events.push('second work');
      await new Promise<void>((resolve) => (finishSecond = resolve));
    }, () => void events.push('second commit'), () => events.push('second rollback'), 'pipelined');
    await turns();
    first.settle(new Error('EIO: i/o error, fsync'));
    await turns();
    // The second unit read the first one's writes: nothing is undone before it is done.
    expect(events).toEqual(['first work', 'first commit', 'second work']);
    finishSecond();
    await expect(one).rejects.toThrow('EIO: i/o error, fsync');
    await expect(two).rejects.toThrow(/^second unit was undone: the unit of work before it, whose writes it read, could not be made durable \(EIO: i\/o error, fsync\)$/);
    expect(events).toEqual(['first work', 'first commit', 'second work', 'second rollback', 'first rollback']);
    expect(manager.active).toBeUndefined();

    const after: string[] = [];
    await manager.run('third', () => after.push('third work'), () => void after.push('third commit'), () => after.push('third rollback'), 'pipelined');
    expect(after).toEqual(['third work', 'third commit']);
  });

  it('when a commit fails with no unit running, undoes it at once', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const first = heldCommit(events, 'first');
    const one = manager.run('first', () => events.push('first work'), first.commit, () => events.push('first rollback'), 'pipelined');
    await turns();
    first.settle(new Error('EIO: i/o error, fsync'));
    await expect(one).rejects.toThrow('EIO: i/o error, fsync');
    expect(events).toEqual(['first work', 'first commit', 'first rollback']);
  });

  it('starts an exclusive unit only once the committing one is durable', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const first = heldCommit(events, 'first');
    const one = manager.run('first', () => events.push('first work'), first.commit, () => undefined, 'pipelined');
    const exclusive = manager.run('exclusive', () => events.push('exclusive work'), () => undefined, () => undefined);
    await turns();
    expect(events).toEqual(['first work', 'first commit']);
    first.settle();
    await Promise.all([one, exclusive]);
    expect(events).toEqual(['first work', 'first commit', 'exclusive work']);
  });

  it('undoes the running unit alone when its own work fails while the one before commits', async () => {
    const manager = new TransactionManager();
    const events: string[] = [];
    const first = heldCommit(events, 'first');
    const one = manager.run('first', () => events.push('first work'), first.commit, () => events.push('first rollback'), 'pipelined');
    const two = manager.run('second', () => {
      throw new Error('refused by a rule');
    }, () => undefined, () => events.push('second rollback'), 'pipelined');
    await expect(two).rejects.toThrow('refused by a rule');
    first.settle();
    await one;
    expect(events).toEqual(['first work', 'first commit', 'second rollback']);
  });
});
