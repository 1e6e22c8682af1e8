/**
 * The files of the service's browser pages (the GraphQL IDE and the schema page), read once into memory and
 * served with an ETag and, when the browser accepts it, gzip. Two kinds:
 * - the service's own, in `src/server/ui/` of the installed package (read from there both by `ts-jest`
 *   and by the compiled service in `dist/`, which the build does not copy them into);
 * - prebuilt bundles of installed packages (GraphiQL, React), found with `require.resolve` at start.
 * Only the files of this fixed table are served: a request names one of them or gets a 404, so no request
 * path ever reaches the file system.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { allowMethods } from './http-io.js';

/** The URL prefix the files are served under, e.g. `/ui/ide.js`. */
export const UI_PREFIX = '/ui/';

export interface UiFile {
  contentType: string;
  body: Buffer;
  /** A strong ETag of the body, e.g. `"3f2a..."`. */
  etag: string;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

/** The service's own files, in `src/server/ui/`. */
const OWN_FILES: Readonly<Record<string, string>> = {
  'ide.js': JS,
  'ide.css': CSS,
  'schema.html': HTML,
  'schema.js': JS,
  'schema.css': CSS,
};

/** The IDE's files from installed packages: URL name → [package, file in it, content type]. */
const VENDOR_FILES: Readonly<Record<string, readonly [string, string, string]>> = {
  'vendor/react.production.min.js': ['react', 'umd/react.production.min.js', JS],
  'vendor/react-dom.production.min.js': ['react-dom', 'umd/react-dom.production.min.js', JS],
  'vendor/graphiql.min.js': ['graphiql', 'graphiql.min.js', JS],
  'vendor/graphiql.min.css': ['graphiql', 'graphiql.min.css', CSS],
};

/**
 * The headers of the pages themselves (the IDE, the schema page): scripts from this service only (no inline
 * script, no CDN), requests to this service only (`'self'` covers its `ws:` URL too), no framing by
 * another site. Styles allow inline `style=""` attributes, which GraphiQL's components set.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Files no page needs before this many bytes are not worth compressing. */
const GZIP_MIN_BYTES = 1024;
const gzipAsync = promisify(gzip);

export class UiFiles {
  private readonly files = new Map<string, UiFile>();
  private readonly gzipped = new Map<string, Promise<Buffer>>();

  /** Reads the files now; `vendor` adds the IDE's (GraphiQL and React). Throws naming a file that is missing. */
  constructor(options: { vendor: boolean }) {
    const own = ownFilesFolder();
    for (const [name, contentType] of Object.entries(OWN_FILES)) this.add(name, contentType, join(own, name));
    if (options.vendor) {
      for (const [name, [pkg, file, contentType]] of Object.entries(VENDOR_FILES)) {
        this.add(name, contentType, join(dirname(require.resolve(`${pkg}/package.json`)), file));
      }
    }
  }

  /** The file served as `<UI_PREFIX><name>`, if there is one. */
  get(name: string): UiFile | undefined {
    return Object.hasOwn(OWN_FILES, name) || Object.hasOwn(VENDOR_FILES, name) ? this.files.get(name) : undefined;
  }

  /** The names served under UI_PREFIX, for the route's 404 message. */
  names(): string[] {
    return [...this.files.keys()].filter((name) => !name.endsWith('.html'));
  }

  /** Answers `file` to a GET or HEAD: 304 when the browser holds it, gzip when it accepts that. */
  async send(req: IncomingMessage, res: ServerResponse, name: string, file: UiFile, headers: Record<string, string> = {}): Promise<void> {
    const method = req.method ?? 'GET';
    allowMethods(method, ['GET', 'HEAD']);
    const common = {
      'content-type': file.contentType,
      etag: file.etag,
      // Revalidated on each load (a 304 without the body): the URLs stay the same across upgrades.
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      'x-content-type-options': 'nosniff',
      ...headers,
    };
    if (etagMatches(req.headers['if-none-match'], file.etag)) {
      res.writeHead(304, common);
      res.end();
      return;
    }
    const compress = file.body.length >= GZIP_MIN_BYTES && acceptsGzip(req.headers['accept-encoding']);
    const body = compress ? await this.gzipOf(name, file) : file.body;
    res.writeHead(200, { ...common, 'content-length': String(body.length), ...(compress ? { 'content-encoding': 'gzip' } : {}) });
    res.end(method === 'HEAD' ? undefined : body);
  }

  private gzipOf(name: string, file: UiFile): Promise<Buffer> {
    let compressed = this.gzipped.get(name);
    if (!compressed) {
      compressed = gzipAsync(file.body, { level: 9 });
      this.gzipped.set(name, compressed);
    }
    return compressed;
  }

  private add(name: string, contentType: string, path: string): void {
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch (error) {
      throw new Error(`cannot read the browser page file ${path} (served as ${UI_PREFIX}${name}): ${(error as Error).message}`);
    }
    this.files.set(name, { contentType, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
}

/**
 * `src/server/ui/` of the package this module belongs to: the nearest folder above it holding a
 * `package.json` (the repository, or the image's /app), whether it runs from `src/` or from `dist/src/`.
 */
export function ownFilesFolder(from: string = __dirname): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return join(folder, 'src', 'server', 'ui');
    if (dirname(folder) === folder) throw new Error(`no package.json above ${from}: cannot find the browser page files (src/server/ui)`);
  }
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const value = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}
