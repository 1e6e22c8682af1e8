'use strict';
/**
 * PostGraphile 4 over the bench's PostgreSQL database, as bench/postgraphile.ts runs it: a process of its
 * own (PostGraphile 4 needs graphql 15, the project graphql 16), PostGraphile's library mode as middleware of
 * Node's http server, with the options PostGraphile's documentation recommends for production (no GraphiQL,
 * no watch mode, no query log, errors without stacks).
 *
 * The connection comes from the libpq variables the pg driver reads (PGHOST, PGPORT, PGUSER, PGDATABASE);
 * the pool holds POSTGRAPHILE_POOL_SIZE connections. With POSTGRAPHILE_EXPORT_SCHEMA, it writes the GraphQL
 * schema it serves to that file (sorted, so that it changes only when the schema does). Once the schema is
 * built and the server listens, it prints one JSON line, `{ "url": "http://127.0.0.1:<port>" }`; SIGTERM
 * closes it.
 */
const http = require('node:http');
const { Pool } = require('pg');
const { postgraphile } = require('postgraphile');
const PgSimplifyInflectorPlugin = require('@graphile-contrib/pg-simplify-inflector');

const poolSize = Number(process.env.POSTGRAPHILE_POOL_SIZE);
if (!Number.isInteger(poolSize) || poolSize < 1) {
  throw new Error(`POSTGRAPHILE_POOL_SIZE must be a positive integer, got "${process.env.POSTGRAPHILE_POOL_SIZE}"`);
}

const pool = new Pool({ max: poolSize });

const handler = postgraphile(pool, 'public', {
  graphiql: false,
  watchPg: false,
  disableQueryLog: true,
  retryOnInitFail: false,
  dynamicJson: true,
  setofFunctionsContainNulls: false,
  ignoreRBAC: false,
  legacyRelations: 'omit',
  extendedErrors: ['errcode'],
  showErrorStack: false,
  appendPlugins: [PgSimplifyInflectorPlugin],
  exportGqlSchemaPath: process.env.POSTGRAPHILE_EXPORT_SCHEMA || undefined,
  sortExport: true,
});

async function main() {
  // Built before listening, so the first request measured never waits for introspection.
  await handler.getGraphQLSchema();
  const server = http.createServer(handler);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      Promise.resolve(handler.release())
        .then(() => pool.end())
        .then(() => process.exit(0), () => process.exit(1));
    });
  });
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
