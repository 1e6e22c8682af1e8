import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { errorFromAnswer, type AdminClient } from './admin-client.js';
import { UsageError } from './command.js';

/** An admin error as the service answers it: `{ message, locations?, extensions: { code } }`. */
export interface AnsweredError {
  message: string;
  locations?: { line: number; column: number }[];
  extensions?: { code?: string };
}

/** The answer of an upload: `data` when it was taken, `errors` (plus `extensions`) when it was refused. */
export interface UploadAnswer<TData> {
  status: number;
  data?: TData;
  errors?: AnsweredError[];
  extensions?: Record<string, unknown>;
}

/** The text of a file named on the command line, relative to the working folder; a missing file is a usage error. */
export async function readInputFile(cwd: string, file: string): Promise<string> {
  try {
    return await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Sends an upload and answers its parsed body. A refusal the caller reports itself (400, 409: the upload's
 * fault, with every error listed) is returned; anything else that is not 2xx throws AdminHttpError.
 */
export async function upload<TData>(client: AdminClient, path: string, body?: string): Promise<UploadAnswer<TData>> {
  const response = await client.request('POST', path, body, body === undefined ? {} : { 'content-type': 'text/plain; charset=utf-8' });
  const text = await response.text();
  if (response.ok || response.status === 400 || response.status === 409) {
    try {
      return { status: response.status, ...(JSON.parse(text) as Omit<UploadAnswer<TData>, 'status'>) };
    } catch {
      // not the service's JSON answer: reported below as it came
    }
  }
  throw errorFromAnswer(response.status, text);
}

/** One line per error: `line:column message [CODE]`. */
export function errorLines(errors: readonly AnsweredError[]): string {
  return errors
    .map((error) => {
      const where = (error.locations ?? []).map((location) => `${location.line}:${location.column}`).join(', ');
      const code = error.extensions?.code ? ` [${error.extensions.code}]` : '';
      return `error: ${where ? `${where} ` : ''}${error.message}${code}\n`;
    })
    .join('');
}
