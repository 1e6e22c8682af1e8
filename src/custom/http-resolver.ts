import type { CustomHttpConfig } from '../sdl/model.js';
import { BodyTemplateError, parseBodyTemplate, renderBodyTemplate } from './body-template.js';
import { customHttpFetch } from './get-with-body.js';
import type { BodyTemplate } from './body-template.js';
import { CustomHttpError } from './http-errors.js';
import { isHostAllowed } from './host-allow-list.js';
import { renderUrlTemplate, UrlTemplateError } from './url-template.js';
import { secretEnvVariable } from './secret-names.js';

export { CustomHttpError } from './http-errors.js';

/** The incoming request's headers: a plain record (any key case) or a Map/Headers-like object. */
export type IncomingHeaders =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | { get(name: string): string | null | undefined };

interface CustomHttpCommonOptions {
  /** The field as "Type.field", for error messages. */
  field: string;
  args?: Readonly<Record<string, unknown>>;
  incomingHeaders?: IncomingHeaders;
  /** Configured secret values by name, for `secretHeaders`. Never taken from the schema. */
  secrets?: Readonly<Record<string, string>>;
  /** Hosts that may be called (see host-allow-list.ts); empty refuses every host, `['*']` allows all. */
  allowHosts: readonly string[];
  /** Time limit of one request including reading the answer, in ms. Default 10000. */
  timeoutMs?: number;
  /** Largest answer accepted, in bytes. Default 5 MB. */
  maxResponseBytes?: number;
  /** SINGLE mode with parents: how many requests may be in flight at once. Default 8. */
  concurrency?: number;
  fetch?: typeof fetch;
}

export interface CustomHttpSingleOptions extends CustomHttpCommonOptions {
  /** The object the field belongs to; absent for custom queries and mutations. */
  parent?: Readonly<Record<string, unknown>> | null;
}

export interface CustomHttpBatchOptions extends CustomHttpCommonOptions {
  /** All parents of one level; the answer has one value per parent, in the same order. */
  parents: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const DEFAULT_CONCURRENCY = 8;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const REASON_LENGTH = 200;

/**
 * Resolves a `@custom(http:)` field. With `parent` (or neither) it answers one value; with `parents` one
 * value per parent: SINGLE mode sends one request per parent (at most `concurrency` at once), BATCH mode
 * one request whose JSON body is the array of the per-parent bodies and whose answer must be an array
 * of the same length. Placeholders see the parent's fields and the arguments (arguments win on a clash);
 * in BATCH mode the url sees only the arguments. Fails with CustomHttpError.
 */
export function callCustomHttp(config: CustomHttpConfig, options: CustomHttpBatchOptions): Promise<unknown[]>;
export function callCustomHttp(config: CustomHttpConfig, options: CustomHttpSingleOptions): Promise<unknown>;
export async function callCustomHttp(
  config: CustomHttpConfig,
  options: CustomHttpSingleOptions | CustomHttpBatchOptions,
): Promise<unknown> {
  const plan = planOf(config, options.field);
  if ('parents' in options) {
    if (options.parents.length === 0) return [];
    if (plan.mode === 'BATCH') return sendBatch(plan, options, options.parents);
    return mapBounded(options.parents, options.concurrency ?? DEFAULT_CONCURRENCY, (parent) => sendSingle(plan, options, parent));
  }
  const parent = options.parent ?? {};
  if (plan.mode === 'BATCH') return (await sendBatch(plan, options, [parent]))[0];
  return sendSingle(plan, options, parent);
}

interface RequestPlan {
  field: string;
  url: string;
  method: string;
  body?: BodyTemplate;
  mode: 'SINGLE' | 'BATCH';
  forwardHeaders: Array<{ outgoing: string; source: string }>;
  secretHeaders: Array<{ outgoing: string; source: string }>;
}

function planOf(config: CustomHttpConfig, field: string): RequestPlan {
  const fail = (reason: string): never => {
    throw new CustomHttpError(field, reason);
  };
  const method = config.method.toUpperCase();
  if (!METHODS.has(method)) fail(`the method ${config.method} is not one of ${[...METHODS].join(', ')}`);
  let body: BodyTemplate | undefined;
  if (config.body !== undefined) {
    try {
      body = parseBodyTemplate(config.body);
    } catch (error) {
      if (error instanceof BodyTemplateError) fail(error.message);
      throw error;
    }
  }
  if (config.mode === 'BATCH' && body === undefined) fail('mode BATCH needs a body template (one entry per parent is sent as a JSON array)');
  return {
    field,
    url: config.url,
    method,
    body,
    mode: config.mode,
    forwardHeaders: config.forwardHeaders.map(headerMapping),
    secretHeaders: config.secretHeaders.map(headerMapping),
  };
}

/** `Name` sends header Name from source Name; `Outgoing:Source` renames. */
function headerMapping(entry: string): { outgoing: string; source: string } {
  const colonAt = entry.indexOf(':');
  if (colonAt < 0) return { outgoing: entry.trim(), source: entry.trim() };
  return { outgoing: entry.slice(0, colonAt).trim(), source: entry.slice(colonAt + 1).trim() };
}

function sendSingle(plan: RequestPlan, options: CustomHttpCommonOptions, parent: Readonly<Record<string, unknown>>): Promise<unknown> {
  const lookup = variablesOf(parent, options.args);
  const url = renderUrl(plan, lookup);
  const body = plan.body === undefined ? undefined : renderBodyTemplate(plan.body, lookup);
  return send(plan, options, url, body);
}

async function sendBatch(
  plan: RequestPlan,
  options: CustomHttpCommonOptions,
  parents: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Promise<unknown[]> {
  const url = renderUrl(plan, variablesOf({}, options.args));
  const body = parents.map((parent) => renderBodyTemplate(plan.body!, variablesOf(parent, options.args)));
  const answer = await send(plan, options, url, body);
  if (!Array.isArray(answer)) throw new CustomHttpError(plan.field, `mode BATCH expects a JSON array answer, got ${kindOf(answer)}`);
  if (answer.length !== parents.length) {
    throw new CustomHttpError(plan.field, `mode BATCH expects one answer per parent: sent ${parents.length}, got ${answer.length}`);
  }
  return answer;
}

function variablesOf(parent: Readonly<Record<string, unknown>>, args: Readonly<Record<string, unknown>> | undefined) {
  return (name: string): unknown => {
    if (args && Object.prototype.hasOwnProperty.call(args, name)) return args[name];
    return Object.prototype.hasOwnProperty.call(parent, name) ? parent[name] : undefined;
  };
}

function renderUrl(plan: RequestPlan, lookup: (name: string) => unknown): URL {
  let text: string;
  try {
    text = renderUrlTemplate(plan.url, lookup);
  } catch (error) {
    if (error instanceof UrlTemplateError) {
      const hint = plan.mode === 'BATCH' ? ' (in mode BATCH the url may use only arguments)' : '';
      throw new CustomHttpError(plan.field, `${error.message}${hint}`);
    }
    throw error;
  }
  try {
    return new URL(text);
  } catch {
    throw new CustomHttpError(plan.field, `the url ${JSON.stringify(text)} is not a valid absolute URL`);
  }
}

async function send(plan: RequestPlan, options: CustomHttpCommonOptions, url: URL, body: unknown): Promise<unknown> {
  const target = `${plan.method} ${url.origin}${url.pathname}`;
  if (!isHostAllowed(url, options.allowHosts)) {
    throw new CustomHttpError(plan.field, `the host ${url.host} is not in the allowed hosts for @custom calls (--custom-allow)`);
  }
  const headers = outgoingHeaders(plan, options, body !== undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await (options.fetch ?? customHttpFetch)(url, {
      method: plan.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
      redirect: 'manual',
    });
    const text = await readLimited(response, options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES, plan.field, target);
    if (response.status < 200 || response.status > 299) {
      const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
      const reason = shortReason(text);
      throw new CustomHttpError(
        plan.field,
        `${target} answered ${response.status} ${response.statusText}${redirect}${reason ? `: ${reason}` : ''}`,
        response.status,
      );
    }
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new CustomHttpError(
        plan.field,
        `${target} answered ${response.status} with invalid JSON (${messageOf(error)}): ${shortReason(text)}`,
        response.status,
      );
    }
  } catch (error) {
    if (error instanceof CustomHttpError) throw error;
    if (controller.signal.aborted) throw new CustomHttpError(plan.field, `${target} did not answer within ${timeoutMs} ms`);
    throw new CustomHttpError(plan.field, `${target} failed: ${causeOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function outgoingHeaders(plan: RequestPlan, options: CustomHttpCommonOptions, hasBody: boolean): Headers {
  const headers = new Headers({ accept: 'application/json' });
  if (hasBody) headers.set('content-type', 'application/json');
  for (const { outgoing, source } of plan.forwardHeaders) {
    const value = incomingHeader(options.incomingHeaders, source);
    if (value !== undefined) headers.set(outgoing, value);
  }
  for (const { outgoing, source } of plan.secretHeaders) {
    const value = options.secrets?.[source];
    if (value === undefined) {
      throw new CustomHttpError(plan.field, `the secret header ${outgoing} needs a configured secret named ${source}, and there is none: set the environment variable ${secretEnvVariable(source)} for the service`);
    }
    headers.set(outgoing, value);
  }
  return headers;
}

function incomingHeader(headers: IncomingHeaders | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof headers.get === 'function') return (headers.get as (n: string) => string | null | undefined)(name.toLowerCase()) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const lower = name.toLowerCase();
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
  const value = key === undefined ? undefined : record[key];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

async function readLimited(response: Response, maxBytes: number, field: string, target: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new CustomHttpError(field, `${target} answered more than ${maxBytes} bytes`, response.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function shortReason(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > REASON_LENGTH ? `${oneLine.slice(0, REASON_LENGTH)}...` : oneLine;
}

/** Duck-typed: errors made by Node's fetch come from another realm than this module under jest. */
function messageOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
    ? (error as { message: string }).message
    : undefined;
}

function causeOf(error: unknown): string {
  const message = messageOf(error) ?? String(error);
  const cause = messageOf((error as { cause?: unknown } | null)?.cause);
  return cause ? `${message} (${cause})` : message;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

async function mapBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await run(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  await Promise.all(lanes);
  return results;
}
