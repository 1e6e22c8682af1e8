/**
 * A small service for persisted query tests: Apollo Server 5 over a tiny schema with the persisted query
 * plugin, behind a node:http server on 127.0.0.1 that hands requests to `executeHTTPGraphQLRequest` the
 * way Apollo's own integrations do, plus `POST /admin/persisted-queries` calling `registerManifest`.
 * A spy plugin counts the pipeline phases, so tests can see whether a request was parsed or executed.
 * It tests the plugin alone, with a fake store when asked; the service-*.test.ts files test the real
 * service (createApp with its default wiring) the same way.
 */
import { ApolloServer, HeaderMap, type BaseContext } from '@apollo/server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerManifestUpload, createPersistedQueryPlugin, type PersistedQueries, type PersistedQueryPluginOptions } from '../../src/persisted/index.js';
import { newPipelineCounts, pipelineSpy, type PipelineCounts } from './pipeline-spy.js';

const typeDefs = `#graphql
  type Query {
    hello(name: String): String!
    counter: Int!
  }
  type Mutation {
    increment: Int!
  }
`;

export interface Harness {
  url: string;
  persisted: PersistedQueries;
  pipeline: PipelineCounts;
  /** Times the `increment` mutation ran. */
  readonly counter: number;
  close(): Promise<void>;
}

export interface HarnessOptions extends PersistedQueryPluginOptions {
  /** Apollo Server's CSRF prevention; default on here (the service's --csrf-prevention), so the plugin is tested under it. */
  csrfPrevention?: boolean;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const { csrfPrevention = true, ...pluginOptions } = options;
  const persisted = createPersistedQueryPlugin({ logger: { warn: () => undefined }, ...pluginOptions });
  const pipeline = newPipelineCounts();
  let counter = 0;
  const apollo = new ApolloServer<BaseContext>({
    typeDefs,
    resolvers: {
      Query: { hello: (_: unknown, args: { name?: string }) => `hello ${args.name ?? 'world'}`, counter: () => counter },
      Mutation: { increment: () => (counter += 1) },
    },
    plugins: [persisted.plugin, pipelineSpy(pipeline)],
    persistedQueries: false,
    csrfPrevention,
    includeStacktraceInErrorResponses: false,
  });
  await apollo.start();

  const http = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readText(req);
    if (url.pathname === '/admin/persisted-queries' && req.method === 'POST') {
      const answer = await answerManifestUpload(persisted.registerManifest, raw);
      sendJson(res, answer.status, answer.body);
      return;
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const isJson = (headers.get('content-type') ?? '').startsWith('application/json');
    const body = req.method === 'POST' && isJson && raw !== '' ? (JSON.parse(raw) as unknown) : raw;
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
      context: async () => ({}),
    });
    for (const [name, value] of response.headers) res.setHeader(name, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') {
      res.end(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    persisted,
    pipeline,
    get counter() {
      return counter;
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
      await apollo.stop();
    },
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
