/**
 * graphql-ws's own client over the `ws` package (Node 20 has no global WebSocket), for subscription tests:
 *
 *   const client = wsClient(server.url, { 'X-Auth-Token': token });
 *   const feed = record(client, { query: 'subscription { queryTask { title } }' });
 *   await feed.nextResult();                   // waits for the next result
 *   await client.dispose();
 */
import { createClient, type Client, type ExecutionResult, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';
import { until } from '../helpers/wait.js';

export const wsUrl = (baseUrl: string): string => `${baseUrl.replace(/^http/, 'ws')}/graphql`;

export interface ClosedEvent {
  code: number;
  reason: string;
}

export interface TestClient extends Client {
  /** The close events seen, in order. */
  readonly closes: ClosedEvent[];
}

export function wsClient(baseUrl: string, connectionParams?: Record<string, unknown>, headers?: Record<string, string>): TestClient {
  const closes: ClosedEvent[] = [];
  const Implementation = headers
    ? class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers });
        }
      }
    : WebSocket;
  const client = createClient({
    url: wsUrl(baseUrl),
    webSocketImpl: Implementation,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => closes.push({ code: (event as ClosedEvent).code, reason: (event as ClosedEvent).reason }) },
  });
  return Object.assign(client, { closes });
}

export interface Recorded {
  readonly results: ExecutionResult<Record<string, any>>[];
  /** What the client's error callback got: GraphQL errors (an `error` message) or a close event. */
  error: unknown;
  completed: boolean;
  /** Resolves with result number `index` (0-based; default: the one after those already taken). */
  nextResult(): Promise<ExecutionResult<Record<string, any>>>;
  /** Resolves once the subscription ended with an error or completed. */
  ended(): Promise<void>;
  stop(): void;
}

export function record(client: Client, payload: SubscribePayload): Recorded {
  let taken = 0;
  const recorded: Recorded = {
    results: [],
    error: undefined,
    completed: false,
    async nextResult() {
      const index = taken++;
      await until(() => recorded.results.length > index || recorded.error !== undefined || recorded.completed);
      if (recorded.results.length <= index) throw new Error(`subscription ended before result ${index}: ${JSON.stringify(recorded.error) ?? 'completed'}`);
      return recorded.results[index]!;
    },
    async ended() {
      await until(() => recorded.error !== undefined || recorded.completed);
    },
    stop: () => undefined,
  };
  recorded.stop = client.subscribe(payload, {
    next: (result) => void recorded.results.push(result as ExecutionResult<Record<string, any>>),
    error: (error) => void (recorded.error = error ?? 'error'),
    complete: () => void (recorded.completed = true),
  });
  return recorded;
}
