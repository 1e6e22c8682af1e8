import { activateSchema, gql } from '../helpers/gql';
import { startTestServer, type TestServer } from '../helpers/server';
import { loadLambda } from './lambda-upload';

/** The lambda worker's memory limit and timers the script starts while it loads, over HTTP. */

describe('a lambda that allocates without bound', () => {
  let server: TestServer;

  beforeAll(async () => {
    // A generous time limit, so the allocation hits the (small) memory limit first.
    server = await startTestServer({ lambdaMemoryMb: 32, lambdaTimeoutMs: 10_000 });
    await activateSchema(server.url, `type Query {
      hog: String @lambda
      echo(text: String!): String @lambda
    }`);
    await loadLambda(server.url, `self.addGraphQLResolvers({
      'Query.hog': () => { const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); },
      'Query.echo': ({ args }) => 'echo: ' + args.text,
    });`);
  });

  afterAll(() => server.close());

  test('fails its own field; a lambda field of the same request is answered, and so is the next request', async () => {
    const { status, body } = await gql(server.url, `{ hog echo(text: "same request") }`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ hog: null, echo: 'echo: same request' });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'Lambda resolver Query.hog failed: the lambda worker ran out of memory while running it',
        path: ['hog'],
        extensions: expect.objectContaining({ code: 'LAMBDA_FAILED', failure: 'worker-stopped' }),
      }),
    ]);

    const next = await gql(server.url, `{ echo(text: "next request") }`);
    expect(next.body).toEqual({ data: { echo: 'echo: next request' } });
  });
});

describe('a timer the script starts while it loads, whose callback loops forever', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ lambdaTimeoutMs: 300 });
    await activateSchema(server.url, `type Query {
      workerAfterTimer: String @lambda
      worker: String @lambda
    }`);
    await loadLambda(server.url, `
      const workerId = String(Math.random());
      let timerRan = false;
      setTimeout(() => { timerRan = true; for (;;) {} }, 10);
      const nap = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      self.addGraphQLResolvers({
        'Query.workerAfterTimer': async () => { while (!timerRan) await nap(5); return workerId; },
        'Query.worker': () => workerId,
      });
    `);
  });

  afterAll(() => server.close());

  test('is stopped at the time limit; the worker, with its state, keeps serving', async () => {
    const first = await gql(server.url, `{ workerAfterTimer }`);
    expect(first.body.errors).toBeUndefined();
    const workerId = first.body.data!.workerAfterTimer as string;
    // A restarted worker would have loaded the script again, with another id (and the same timer).
    const second = await gql(server.url, `{ worker }`);
    expect(second.body).toEqual({ data: { worker: workerId } });
  });
});
