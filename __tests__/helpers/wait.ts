import { createServer } from 'node:net';

/**
 * Resolves once `condition()` holds, checking every few milliseconds. There is no time limit of its own:
 * the test's time-out bounds it, so a condition that never comes true fails the test.
 */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A loopback port nobody listens on (an ephemeral port bound, then released): connections to it are refused. */
export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') {
    throw new Error('could not learn the ephemeral port');
  }
  return address.port;
}
