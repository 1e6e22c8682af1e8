/**
 * The GraphQL IDE: GraphiQL 3, at `/` and at `GET /graphql` for a browser (a GET that accepts `text/html`
 * and sends no `query` parameter; every other `/graphql` request goes to the GraphQL route). Its docs
 * explorer reads the schema by introspection, its headers editor starts with the active schema's auth
 * header (`# Autograph.Authorization`), subscriptions run over the service's `graphql-ws` endpoint
 * (`/graphql`), and it sends no persisted queries (plain `{ query, variables }` requests). Switched by
 * `--ide` (`IDE`), off by default under NODE_ENV=production, like `--introspection`.
 *
 * Everything it loads is served by the service itself (ui-assets.ts), from installed packages: no CDN at
 * run time, no download at install or start. Chosen by how it installs and by size (measured December 2026,
 * `npm install --ignore-scripts` in an empty folder, `du -sh node_modules`):
 * - `graphiql@3.9.0` + `react@18.3.1` + `react-dom@18.3.1`: 103 packages, 52 MB in this repository's
 *   node_modules (56 MB alone), no install script; a prebuilt UMD bundle with graphql-ws inside it, and
 *   React 18 is the last React with UMD files. Served to a first visit:
 *   graphiql.min.js 978,022 bytes, graphiql.min.css 410,559 (its fonts inlined), react-dom.production.min.js
 *   131,835, react.production.min.js 10,751, ide.js + ide.css + the page 2,476: 1,533,643 bytes, 631 KB
 *   gzipped (the service gzips each file once, in memory); later visits revalidate with ETags (304s).
 * - `ruru@2.0.2` (PostGraphile's IDE, prebuilt bundle): 131 packages, 272 MB (monaco-editor alone 101 MB,
 *   ruru itself 60 MB), and `engines.node >= 22` where this service supports Node 20.19. Not chosen.
 * `graphiql@4.1.2` still ships a UMD bundle, larger (graphiql.min.js 1.1 MB); `graphiql@5` ships ES modules
 * only, with Monaco's web workers set up for a bundler or esm.sh.
 */
import type { IncomingMessage } from 'node:http';
import type { ActiveSchema } from '../activation.js';
import { allowMethods } from '../http-io.js';
import type { Route } from '../router.js';
import { PAGE_HEADERS, UI_PREFIX } from '../ui-files.js';

export interface IdeRouteDeps {
  /** The schema being served, if any: its auth header prefills the headers editor. */
  active(): ActiveSchema | undefined;
}

/** What the page's script (ui/ide.js) reads from the page: the JSON in `<script id="autograph-ide-config">`. */
export interface IdePageConfig {
  endpoint: string;
  /** The headers editor's first text (JSON), or undefined for an empty editor. */
  headers?: string;
}

const DEFAULT_QUERY = `# Autograph's GraphQL IDE: write a query, run it with Ctrl-Enter.
# The docs explorer (top left) lists the generated API.
# Headers (below) go with every request and subscription.
`;

export function ideRoute(deps: IdeRouteDeps): Route {
  return {
    paths: ['/'],
    matches: (path, req) => path === '/' || (path === '/graphql' && isBrowserPageRequest(req)),
    async handle(req, res) {
      allowMethods(req.method ?? 'GET', ['GET', 'HEAD']);
      const html = idePage(ideConfig(deps.active()));
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(html)),
        // The headers editor follows the active schema: never a stale copy.
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        ...PAGE_HEADERS,
      });
      res.end(req.method === 'HEAD' ? undefined : html);
    },
  };
}

/**
 * A browser opening `/graphql`: GET (or HEAD), `Accept` naming `text/html`, and no `query` parameter, as
 * Apollo Server decides to show its landing page. A GET with `?query=` is a GraphQL request, whatever it accepts.
 */
export function isBrowserPageRequest(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!/\btext\/html\b/i.test(req.headers.accept ?? '')) return false;
  return !new URL(req.url ?? '/', 'http://localhost').searchParams.has('query');
}

export function ideConfig(active: ActiveSchema | undefined): IdePageConfig {
  const header = active?.model.authorization?.header;
  return header === undefined ? { endpoint: '/graphql' } : { endpoint: '/graphql', headers: `${JSON.stringify({ [header]: '' }, null, 2)}\n` };
}

function idePage(config: IdePageConfig): string {
  const data = { ...config, defaultQuery: DEFAULT_QUERY };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Autograph GraphQL IDE</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${UI_PREFIX}vendor/graphiql.min.css">
<link rel="stylesheet" href="${UI_PREFIX}ide.css">
<script id="autograph-ide-config" type="application/json">${scriptSafeJson(data)}</script>
<script defer src="${UI_PREFIX}vendor/react.production.min.js"></script>
<script defer src="${UI_PREFIX}vendor/react-dom.production.min.js"></script>
<script defer src="${UI_PREFIX}vendor/graphiql.min.js"></script>
<script defer src="${UI_PREFIX}ide.js"></script>
</head>
<body>
<div id="graphiql"><p class="loading">Loading the GraphQL IDE…</p></div>
<noscript>The GraphQL IDE needs JavaScript. Send queries with POST /graphql instead.</noscript>
</body>
</html>
`;
}

/** JSON that cannot end the `<script>` element holding it, whatever strings it carries. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
