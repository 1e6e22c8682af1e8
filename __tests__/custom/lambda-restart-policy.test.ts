import { RestartPolicy } from '../../src/custom/lambda-restart-policy';

/** When a stopped lambda worker is restarted, after which pause, and when restarts stop. */

const crash = { reason: 'the lambda worker ran out of memory', causedByCall: false, answeredCalls: false };

test('crashes of the script itself are restarted after doubling pauses, then given up', () => {
  const policy = new RestartPolicy({ maxCrashesInARow: 5, firstPauseMs: 100, maxPauseMs: 300 });
  expect([1, 2, 3, 4].map(() => policy.afterStop(crash))).toEqual([
    { restartAfterMs: 0 },
    { restartAfterMs: 100 },
    { restartAfterMs: 200 },
    { restartAfterMs: 300 },
  ]);
  expect(policy.afterStop(crash)).toEqual({
    giveUp: 'the lambda worker stopped 5 times in a row without answering a call (last: the lambda worker ran out of memory); ' +
      'lambda fields fail until a new lambda script is loaded',
  });
});

test('a stop while a call was running restarts at once and is not counted', () => {
  const policy = new RestartPolicy({ maxCrashesInARow: 2 });
  expect(policy.afterStop(crash)).toEqual({ restartAfterMs: 0 });
  for (let i = 0; i < 10; i += 1) {
    expect(policy.afterStop({ ...crash, causedByCall: true })).toEqual({ restartAfterMs: 0 });
  }
  expect(policy.afterStop(crash)).toHaveProperty('giveUp');
});

test('a worker that answered calls clears the count, and so does a new script', () => {
  const policy = new RestartPolicy({ maxCrashesInARow: 3, firstPauseMs: 100 });
  policy.afterStop(crash);
  policy.afterStop(crash);
  expect(policy.afterStop({ ...crash, answeredCalls: true })).toEqual({ restartAfterMs: 0 });
  policy.afterStop(crash);
  policy.reset();
  expect(policy.afterStop(crash)).toEqual({ restartAfterMs: 0 });
  expect(policy.afterStop(crash)).toEqual({ restartAfterMs: 100 });
});

test('a replacement that does not start counts as a crash', () => {
  const policy = new RestartPolicy({ maxCrashesInARow: 2 });
  policy.afterStop(crash);
  expect(policy.restartFailed('a new worker did not start: boom')).toEqual({
    giveUp: 'the lambda worker stopped 2 times in a row without answering a call (last: a new worker did not start: boom); ' +
      'lambda fields fail until a new lambda script is loaded',
  });
});
