/**
 * The data lifecycle endpoints (the caller is already authorized as an admin):
 *
 * - `GET /admin/export`: every collection as one NDJSON stream (transfer/format.ts) from a snapshot,
 *   streamed with backpressure. A failure after the answer has begun cuts the stream short, so the file
 *   lacks its end line and an import refuses it.
 * - `POST /admin/import`: the body is such a stream; into a store without data, all or nothing; then the
 *   file's lambda script and schema are activated (a schema that does not activate undoes the import).
 * - `POST /admin/backup` with `{"folder": "/absolute/path"}`: an embedded data folder on the service's machine.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ErrorCode } from '../../errors/codes.js';
import { StoreUnavailableError, type Store } from '../../store/port.js';
import { BackupRefusedError, backupToFolder } from '../../transfer/backup.js';
import { exportChunks } from '../../transfer/export.js';
import { ImportFileError, ImportLeftoverError, importDocuments, StoreNotEmptyError } from '../../transfer/import.js';
import { LineError, splitLines } from '../../transfer/lines.js';
import { refusedUploadBody } from '../activation-answer.js';
import type { ActivationError } from '../activation.js';
import { allowMethods, decodedBody, HttpError, readBody, sendJson } from '../http-io.js';

export const DATA_PATHS = ['/admin/export', '/admin/import', '/admin/backup'] as const;

type Activation = { ok: true } | { ok: false; httpStatus: number; errors: ActivationError[] };

export interface AdminDataDeps {
  store: Store;
  logger: Logger;
  /** The largest line (one document) an import accepts, and the largest backup request body. */
  maxBodyBytes: number;
  activateSchema(text: string): Promise<Activation>;
  activateLambda(text: string): Promise<Activation>;
}

export function isDataPath(path: string): boolean {
  return (DATA_PATHS as readonly string[]).includes(path);
}

/** Serves one of DATA_PATHS. */
export function dataAdminHandler(deps: AdminDataDeps): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  let importRunning = false;
  return async (req, res, path) => {
    const method = req.method ?? 'GET';
    if (path === '/admin/export') {
      allowMethods(method, ['GET']);
      await answerExport(res, deps);
      return;
    }
    allowMethods(method, ['POST']);
    if (path === '/admin/backup') {
      await answerBackup(req, res, deps);
      return;
    }
    if (importRunning) throw new HttpError(409, 'STORE_NOT_EMPTY', 'another import is running; wait for its answer');
    importRunning = true;
    try {
      await answerImport(req, res, deps);
    } finally {
      importRunning = false;
    }
  };
}

async function answerExport(res: ServerResponse, deps: AdminDataDeps): Promise<void> {
  const snapshot = await withTransferErrors(() => deps.store.openSnapshot());
  let clientGone = false;
  res.on('close', () => (clientGone = !res.writableFinished));
  try {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="autograph-export-${stamp}.ndjson"`,
      'x-autograph-consistency': snapshot.consistency,
      'cache-control': 'no-store',
    });
    // The status goes out now: a failure later can only cut the stream short, which the client sees.
    res.flushHeaders();
    for await (const chunk of exportChunks(snapshot, { storeKind: deps.store.kind })) {
      if (clientGone) return;
      if (!res.write(chunk)) await drained(res);
    }
    res.end();
  } catch (error) {
    deps.logger.error({ err: error }, 'export failed after it began; the stream was cut short (it lacks its end line)');
    // Closed without the end of the chunked body, after what was written has gone out: the client sees a
    // cut stream (and the file lacks its end line) rather than an export that ended.
    if (res.socket) res.socket.destroySoon();
    else res.destroy();
  } finally {
    await snapshot.close();
  }
}

/** Resolves when `res` can take more, or when the client has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function answerImport(req: IncomingMessage, res: ServerResponse, deps: AdminDataDeps): Promise<void> {
  const { store } = deps;
  const imported = await withTransferErrors(() => importDocuments(store, splitLines(decodedBody(req), deps.maxBodyBytes)));
  const { schema, lambda } = imported.header;
  // The script first: the schema's @lambda fields must find their resolvers in it.
  for (const [text, activate, code] of [
    [lambda, deps.activateLambda, ErrorCode.BAD_LAMBDA_SCRIPT],
    [schema, deps.activateSchema, ErrorCode.BAD_SCHEMA],
  ] as const) {
    if (text === null) continue;
    const result = await activate(text);
    if (!result.ok) {
      const what = code === ErrorCode.BAD_SCHEMA ? 'schema' : 'lambda script';
      await withTransferErrors(() => imported.undo(new Error(`the file's ${what} did not activate`)));
      const errors = result.errors.map((error) => ({ ...error, message: `the file's ${what} did not activate, so its documents were removed again: ${error.message}` }));
      sendJson(res, result.httpStatus, refusedUploadBody(result.httpStatus, errors, code));
      return;
    }
  }
  const total = Object.values(imported.documents).reduce((sum, count) => sum + count, 0);
  sendJson(res, 200, { data: { documents: imported.documents, total, schemaActivated: schema !== null, lambdaActivated: lambda !== null } });
}

async function answerBackup(req: IncomingMessage, res: ServerResponse, deps: AdminDataDeps): Promise<void> {
  const folder = backupFolderOf(await readBody(req, deps.maxBodyBytes));
  const report = await withTransferErrors(() => backupToFolder(deps.store, folder));
  sendJson(res, 200, { data: report });
}

function backupFolderOf(body: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'BAD_USER_INPUT', 'the backup request body must be JSON: {"folder": "/absolute/path/on/the/service/machine"}');
  }
  const folder = (parsed as { folder?: unknown } | null)?.folder;
  if (typeof folder !== 'string' || folder === '') {
    throw new HttpError(400, 'BAD_USER_INPUT', `the backup request needs "folder", a non-empty string, got ${JSON.stringify(folder)}`);
  }
  return folder;
}

/** Runs `work`, answering the transfer errors with their HTTP status and code. */
async function withTransferErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ImportFileError || error instanceof LineError) throw new HttpError(400, 'BAD_IMPORT_FILE', `${error.message}; nothing was imported`);
    if (error instanceof StoreNotEmptyError) throw new HttpError(409, 'STORE_NOT_EMPTY', error.message);
    if (error instanceof BackupRefusedError) throw new HttpError(400, 'BAD_USER_INPUT', error.message);
    if (error instanceof ImportLeftoverError || error instanceof StoreUnavailableError) throw new HttpError(503, 'STORE_UNAVAILABLE', error.message);
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      throw new HttpError(400, 'BAD_REQUEST', 'the client closed the connection before the file was complete; nothing was imported');
    }
    throw error;
  }
}
