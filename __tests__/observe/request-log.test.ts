/**
 * Issue 16: one log line per request, with the request id (the caller's `x-request-id`, or a new one)
 * echoed in the response, the operation, the duration, the HTTP status and the error codes.
 */
import { createApp } from '../../src/server/app.js';
import { startServer, type RunningServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import type { Store } from '../../src/store/port.js';
import { createTestBackend, type TestBackend } from '../helpers/backend';
import { TASK_USER_SCHEMA } from '../fixtures/schemas';
import { gql } from '../helpers/gql';
import { until } from '../helpers/wait';

interface LogLine {
  level: number;
  msg: string;
  component?: string;
  requestId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  operationType?: string;
  operationName?: string;
  errorCodes?: string[];
}

const INFO = 30;
const DEBUG = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let backend: TestBackend;
let store: Store;
let server: RunningServer;
const lines: LogLine[] = [];

beforeAll(async () => {
  backend = await createTestBackend();
  store = await backend.open();
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const app = await createApp({ store, logger, initialSchema: TASK_USER_SCHEMA });
  server = await startServer({ app, port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
  await store.close();
  await backend.remove();
});

/** The request line logged for `requestId`, once the response is over. */
async function requestLine(requestId: string): Promise<LogLine> {
  const find = () => lines.find((line) => line.msg === 'request' && line.requestId === requestId);
  await until(() => find() !== undefined);
  return find()!;
}

it('takes the caller x-request-id, echoes it, and logs one info line with the operation, status and duration', async () => {
  const response = await gql(server.url, 'query Tasks { queryTask { title } }', undefined, { 'x-request-id': 'abc-123' });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-request-id')).toBe('abc-123');
  const line = await requestLine('abc-123');
  const { ms, ...rest } = line;
  expect(rest).toEqual({
    level: INFO,
    time: expect.any(String),
    service: 'autograph',
    component: 'http',
    msg: 'request',
    requestId: 'abc-123',
    method: 'POST',
    path: '/graphql',
    status: 200,
    operationType: 'query',
    operationName: 'Tasks',
  });
  expect(ms).toBeGreaterThanOrEqual(0);
  expect(lines.filter((candidate) => candidate.requestId === 'abc-123')).toHaveLength(1);
});

it('generates a request id when the caller sends none, or one that is not a plain token', async () => {
  const none = await gql(server.url, '{ queryTask { title } }');
  const generated = none.headers.get('x-request-id')!;
  expect(generated).toMatch(UUID);
  expect((await requestLine(generated)).operationName).toBe('');

  const spaced = await gql(server.url, '{ queryTask { title } }', undefined, { 'x-request-id': 'two words' });
  const replaced = spaced.headers.get('x-request-id')!;
  expect(replaced).toMatch(UUID);
  expect((await requestLine(replaced)).status).toBe(200);
});

it('logs the error codes of a refused request, and no operation for one that did not validate', async () => {
  const response = await gql(server.url, 'query Broken { queryTask { nope } }', undefined, { 'x-request-id': 'refused-1' });
  expect(response.status).toBe(400);
  const line = await requestLine('refused-1');
  expect([line.level, line.status, line.errorCodes, line.operationType, line.operationName]).toEqual([INFO, 400, ['GRAPHQL_VALIDATION_FAILED'], undefined, undefined]);
});

it('logs refusals outside Apollo (a wrong method) with their code, and every route, probes at debug', async () => {
  const wrongMethod = await fetch(`${server.url}/graphql`, { method: 'DELETE', headers: { 'x-request-id': 'method-1' } });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('x-request-id')).toBe('method-1');
  const refused = await requestLine('method-1');
  expect([refused.level, refused.method, refused.status, refused.errorCodes]).toEqual([INFO, 'DELETE', 405, ['METHOD_NOT_ALLOWED']]);

  const health = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'probe-1' } });
  expect(health.headers.get('x-request-id')).toBe('probe-1');
  const probe = await requestLine('probe-1');
  expect([probe.level, probe.path, probe.status]).toEqual([DEBUG, '/health', 200]);

  await fetch(`${server.url}/metrics`, { headers: { 'x-request-id': 'scrape-1' } });
  expect((await requestLine('scrape-1')).level).toBe(DEBUG);
});
