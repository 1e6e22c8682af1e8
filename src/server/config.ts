import { DEFAULT_BUDGET_LIMITS } from '../limits/budget.js';
import { LAMBDA_DEFAULTS } from '../custom/lambda-defaults.js';
import { CUSTOM_SECRET_ENV_PREFIX } from '../custom/secret-names.js';
import { OPERATION_LIMITS, type OperationLimitName, type OperationLimits } from '../limits/settings.js';
import { PERSISTED_QUERY_DEFAULTS } from '../persisted/defaults.js';
import { DEFAULT_SCHEMA_LIMITS } from '../sdl/limits.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-io.js';
import { DEFAULT_LIVE_SETTINGS } from '../live/settings.js';
import { DEFAULT_CHANGE_POLL_MS } from '../store/mongo/change-feed.js';

/**
 * Command-line flags and their environment equivalents. A flag wins over its environment variable, which
 * wins over the default; an empty environment variable counts as unset.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The operation limits (`--max-depth`, `--max-cost`, ...) are given by name; unset ones take their defaults. */
export interface ServerConfig extends Partial<OperationLimits> {
  port: number;
  host: string;
  /** Folder of the embedded store; unused when `mongoUri` is set. */
  dataDir: string;
  /** A schema file to activate at start; it replaces the stored active schema. */
  schemaFile?: string;
  /** Use MongoDB at this URI instead of the embedded store. */
  mongoUri?: string;
  /** With MongoDB: how often to look for a schema or lambda script another instance stored, in ms. */
  storeCheckMs?: number;
  /** When set, `/admin/*` requires `Authorization: Bearer <token>`; otherwise only loopback callers. */
  adminToken?: string;
  logLevel: LogLevel;
  /** A lambda script to load at start; it replaces the stored script. */
  lambdaFile?: string;
  /** Time limit of one lambda call, in ms. */
  lambdaTimeoutMs?: number;
  /** Heap limit of the lambda process, and the most ArrayBuffer memory a script may hold, in MB. */
  lambdaMemoryMb?: number;
  /** Resident memory past which the lambda process is killed and restarted, in MB. */
  lambdaMaxResidentMb?: number;
  /** Largest result of one lambda call as JSON (and largest graphql() request of a script), in bytes. */
  lambdaMaxResultBytes?: number;
  /** Hosts `@custom(http:)` may call: `host`, `host:port`, `*.domain`, or `*`. */
  customAllow?: string[];
  /** Time limit of one `@custom` HTTP call, in ms. */
  customTimeoutMs?: number;
  /** Secrets for `@custom(http: { secretHeaders })`, by name: from environment variables `CUSTOM_SECRET_<NAME>`. */
  customSecrets?: Record<string, string>;
  /** Safelist mode: only persisted queries registered by manifest upload run. */
  persistedOnly?: boolean;
  /** Most persisted queries kept in memory (the rest are read from the store). */
  persistedLruEntries?: number;
  /** Most bytes of persisted query text kept in memory. */
  persistedLruBytes?: number;
  /** Largest query text that may be persisted, in UTF-8 bytes. */
  persistedMaxQueryBytes?: number;
  /** Time limit of one GraphQL request, in ms. */
  requestTimeoutMs?: number;
  /** Most objects one GraphQL answer may hold. */
  maxResultObjects?: number;
  /** Most bcrypt operations (`@secret` passwords hashed or checked) one GraphQL request may do. */
  maxPasswordOperations?: number;
  /** How long store changes are gathered into one batch of subscription re-runs, in ms. */
  subscriptionDebounceMs?: number;
  /** Most running subscriptions per WebSocket connection. */
  maxSubscriptionsPerConnection?: number;
  /** Most running subscriptions on this instance. */
  maxSubscriptions?: number;
  /** With a standalone MongoDB: how often to read other instances' write counters, in ms. */
  changePollMs?: number;
  /** Most queries clients may register (APQ) in the store; the least recently used are evicted past it. */
  persistedMaxRegistered?: number;
  /** Most bytes of query text clients may register in the store. */
  persistedMaxRegisteredBytes?: number;
  /** Largest schema text accepted by an upload, in UTF-8 bytes. */
  schemaMaxBytes?: number;
  /** Most object types and interfaces in a schema. */
  schemaMaxTypes?: number;
  /** Most fields over all types of a schema. */
  schemaMaxFields?: number;
  /** Deepest nesting of brackets, braces and parentheses in a schema. */
  schemaMaxDepth?: number;
  /** Browser origins allowed to call `/graphql` (CORS), or `*` for any; none when unset. */
  corsOrigins?: CorsOrigins;
  /** Whether `__schema`/`__type` are answered and validation errors suggest names; default: off under NODE_ENV=production. */
  introspection: boolean;
  /** Apollo's CSRF prevention (a GET must carry a header a cross-site page cannot send without a preflight); default off. */
  csrfPrevention?: boolean;
  /** The GraphQL IDE at `/` and for a browser's `GET /graphql`; default: off under NODE_ENV=production. */
  ide: boolean;
  /** Largest accepted request body (GraphQL JSON, schema, lambda script or manifest upload), in bytes. */
  maxBodyBytes?: number;
  /** Prometheus metrics at `/metrics` (default on). */
  metrics?: boolean;
  /** When set, `/metrics` requires `Authorization: Bearer <token>`; otherwise only loopback callers. */
  metricsToken?: string;
}

/** `*` (any origin) or a list of exact origins such as `https://app.example.com`. */
export type CorsOrigins = '*' | readonly string[];

export type ParsedCommandLine = { kind: 'help' } | { kind: 'run'; config: ServerConfig };

/** A bad flag or value: the CLI prints the message and exits with code 2. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

interface OptionDefinition {
  flag: string;
  env: string;
  key: keyof ServerConfig;
  /** Empty for a switch: `--flag` alone means true, `--flag=false` false; its variable takes true or false. */
  valueName: string;
  description: string;
  parse: (raw: string, source: string) => ServerConfig[keyof ServerConfig];
}

const OPTIONS: readonly OptionDefinition[] = [
  { flag: '--port', env: 'PORT', key: 'port', valueName: 'N', description: 'TCP port, 0 picks a free one (default 8080)', parse: parsePort },
  { flag: '--host', env: 'HOST', key: 'host', valueName: 'ADDR', description: 'interface to listen on (default 127.0.0.1)', parse: nonEmpty },
  { flag: '--data', env: 'DATA_DIR', key: 'dataDir', valueName: 'DIR', description: 'folder of the embedded store (default ./data)', parse: nonEmpty },
  { flag: '--schema', env: 'SCHEMA_FILE', key: 'schemaFile', valueName: 'FILE', description: 'schema to activate at start, replacing the stored one', parse: nonEmpty },
  { flag: '--mongo', env: 'MONGODB_URI', key: 'mongoUri', valueName: 'URI', description: 'use MongoDB at URI instead of the embedded store', parse: parseMongoUri },
  { flag: '--store-check-ms', env: 'STORE_CHECK_MS', key: 'storeCheckMs', valueName: 'MS', description: 'with --mongo: how often to pick up a schema or lambda script another instance stored (default 5000)', parse: parseMilliseconds },
  { flag: '--admin-token', env: 'ADMIN_TOKEN', key: 'adminToken', valueName: 'TOKEN', description: 'bearer token required by /admin/* (without it: loopback callers only)', parse: nonEmpty },
  { flag: '--log-level', env: 'LOG_LEVEL', key: 'logLevel', valueName: 'LEVEL', description: `one of ${LOG_LEVELS.join(', ')} (default info)`, parse: parseLogLevel },
  { flag: '--lambda', env: 'LAMBDA_FILE', key: 'lambdaFile', valueName: 'FILE', description: 'lambda script to load at start, replacing the stored one', parse: nonEmpty },
  { flag: '--lambda-timeout-ms', env: 'LAMBDA_TIMEOUT_MS', key: 'lambdaTimeoutMs', valueName: 'MS', description: 'time limit of one lambda call (default 2000)', parse: parseMilliseconds },
  { flag: '--lambda-memory-mb', env: 'LAMBDA_MEMORY_MB', key: 'lambdaMemoryMb', valueName: 'MB', description: `heap limit of the lambda process, and the most ArrayBuffer memory a script may hold (default ${LAMBDA_DEFAULTS.memoryMb})`, parse: parseCount },
  { flag: '--lambda-max-rss-mb', env: 'LAMBDA_MAX_RSS_MB', key: 'lambdaMaxResidentMb', valueName: 'MB', description: `resident memory past which the lambda process is killed and restarted (default 2 x --lambda-memory-mb + ${LAMBDA_DEFAULTS.processOverheadMb})`, parse: parseCount },
  { flag: '--lambda-max-result-bytes', env: 'LAMBDA_MAX_RESULT_BYTES', key: 'lambdaMaxResultBytes', valueName: 'BYTES', description: `largest lambda result as JSON, and largest graphql() request of a script (default ${LAMBDA_DEFAULTS.maxResultBytes})`, parse: parseCount },
  { flag: '--custom-allow', env: 'CUSTOM_ALLOW', key: 'customAllow', valueName: 'HOSTS', description: 'comma-separated hosts @custom may call (host, host:port, *.domain, *; default none)', parse: parseHostList },
  { flag: '--custom-timeout-ms', env: 'CUSTOM_TIMEOUT_MS', key: 'customTimeoutMs', valueName: 'MS', description: 'time limit of one @custom HTTP call (default 10000)', parse: parseMilliseconds },
  { flag: '--persisted-only', env: 'PERSISTED_ONLY', key: 'persistedOnly', valueName: '', description: 'safelist mode: run only persisted queries registered at /admin/persisted-queries', parse: parseSwitch },
  { flag: '--persisted-lru-entries', env: 'PERSISTED_LRU_ENTRIES', key: 'persistedLruEntries', valueName: 'N', description: `most persisted queries kept in memory (default ${PERSISTED_QUERY_DEFAULTS.lruMaxEntries})`, parse: parseCount },
  { flag: '--persisted-lru-bytes', env: 'PERSISTED_LRU_BYTES', key: 'persistedLruBytes', valueName: 'BYTES', description: `most bytes of persisted query text kept in memory (default ${PERSISTED_QUERY_DEFAULTS.lruMaxBytes})`, parse: parseCount },
  { flag: '--request-timeout-ms', env: 'REQUEST_TIMEOUT_MS', key: 'requestTimeoutMs', valueName: 'MS', description: `time limit of one GraphQL request; MongoDB reads get it as maxTimeMS (default ${DEFAULT_BUDGET_LIMITS.timeoutMs})`, parse: parseMilliseconds },
  { flag: '--max-result-objects', env: 'MAX_RESULT_OBJECTS', key: 'maxResultObjects', valueName: 'N', description: `most objects one GraphQL answer may hold (default ${DEFAULT_BUDGET_LIMITS.maxObjects})`, parse: parseCount },
  { flag: '--max-password-operations', env: 'MAX_PASSWORD_OPERATIONS', key: 'maxPasswordOperations', valueName: 'N', description: `most @secret passwords one GraphQL request may hash or check with bcrypt (default ${DEFAULT_BUDGET_LIMITS.maxPasswordOperations})`, parse: parseCount },
  { flag: '--subscription-debounce-ms', env: 'SUBSCRIPTION_DEBOUNCE_MS', key: 'subscriptionDebounceMs', valueName: 'MS', description: `how long store changes are gathered into one batch of subscription re-runs (default ${DEFAULT_LIVE_SETTINGS.debounceMs})`, parse: parseMilliseconds },
  { flag: '--max-subscriptions-per-connection', env: 'MAX_SUBSCRIPTIONS_PER_CONNECTION', key: 'maxSubscriptionsPerConnection', valueName: 'N', description: `most running subscriptions per WebSocket connection (default ${DEFAULT_LIVE_SETTINGS.maxPerConnection})`, parse: parseCount },
  { flag: '--max-subscriptions', env: 'MAX_SUBSCRIPTIONS', key: 'maxSubscriptions', valueName: 'N', description: `most running subscriptions on this instance (default ${DEFAULT_LIVE_SETTINGS.maxTotal})`, parse: parseCount },
  { flag: '--change-poll-ms', env: 'CHANGE_POLL_MS', key: 'changePollMs', valueName: 'MS', description: `with --mongo on a standalone server (no change streams): how often subscriptions look for other instances' writes (default ${DEFAULT_CHANGE_POLL_MS})`, parse: parseMilliseconds },
  { flag: '--persisted-max-query-bytes', env: 'PERSISTED_MAX_QUERY_BYTES', key: 'persistedMaxQueryBytes', valueName: 'BYTES', description: `largest query text that may be persisted (default ${PERSISTED_QUERY_DEFAULTS.maxQueryBytes})`, parse: parseCount },
  { flag: '--persisted-max-registered', env: 'PERSISTED_MAX_REGISTERED', key: 'persistedMaxRegistered', valueName: 'N', description: `most queries clients may register in the store; the least recently used are evicted past it (default ${PERSISTED_QUERY_DEFAULTS.maxRegisteredQueries})`, parse: parseCount },
  { flag: '--persisted-max-registered-bytes', env: 'PERSISTED_MAX_REGISTERED_BYTES', key: 'persistedMaxRegisteredBytes', valueName: 'BYTES', description: `most bytes of query text clients may register in the store (default ${PERSISTED_QUERY_DEFAULTS.maxRegisteredBytes})`, parse: parseCount },
  { flag: '--cors-origins', env: 'CORS_ORIGINS', key: 'corsOrigins', valueName: 'ORIGINS', description: 'comma-separated browser origins allowed to call /graphql (https://app.example.com), or * for any, and /admin/* with an admin token (default none: no CORS headers)', parse: parseCorsOrigins },
  { flag: '--introspection', env: 'INTROSPECTION', key: 'introspection', valueName: '', description: 'answer __schema/__type and suggest names in validation errors (default: off when NODE_ENV=production, on otherwise)', parse: parseSwitch },
  { flag: '--csrf-prevention', env: 'CSRF_PREVENTION', key: 'csrfPrevention', valueName: '', description: "Apollo's CSRF prevention: refuse a GET without a header that forces a preflight, such as apollo-require-preflight (default off; --csrf-prevention=false turns it off)", parse: parseSwitch },
  { flag: '--ide', env: 'IDE', key: 'ide', valueName: '', description: 'the GraphQL IDE (GraphiQL, served offline) at / and for a browser opening /graphql (default: off when NODE_ENV=production, on otherwise)', parse: parseSwitch },
  { flag: '--max-body-bytes', env: 'MAX_BODY_BYTES', key: 'maxBodyBytes', valueName: 'BYTES', description: `largest request body: GraphQL request, schema, lambda script or manifest (default ${DEFAULT_MAX_BODY_BYTES})`, parse: parseCount },
  { flag: '--metrics', env: 'METRICS', key: 'metrics', valueName: '', description: 'Prometheus metrics at GET /metrics (default on; --metrics=false turns them off)', parse: parseSwitch },
  { flag: '--metrics-token', env: 'METRICS_TOKEN', key: 'metricsToken', valueName: 'TOKEN', description: 'bearer token required by /metrics (without it: loopback callers only)', parse: nonEmpty },
  { flag: '--schema-max-bytes', env: 'SCHEMA_MAX_BYTES', key: 'schemaMaxBytes', valueName: 'BYTES', description: `largest schema an upload may send (default ${DEFAULT_SCHEMA_LIMITS.maxBytes})`, parse: parseCount },
  { flag: '--schema-max-types', env: 'SCHEMA_MAX_TYPES', key: 'schemaMaxTypes', valueName: 'N', description: `most types and interfaces in a schema (default ${DEFAULT_SCHEMA_LIMITS.maxTypes})`, parse: parseCount },
  { flag: '--schema-max-fields', env: 'SCHEMA_MAX_FIELDS', key: 'schemaMaxFields', valueName: 'N', description: `most fields over all types of a schema (default ${DEFAULT_SCHEMA_LIMITS.maxFields})`, parse: parseCount },
  { flag: '--schema-max-depth', env: 'SCHEMA_MAX_DEPTH', key: 'schemaMaxDepth', valueName: 'N', description: `deepest nesting of brackets in a schema (default ${DEFAULT_SCHEMA_LIMITS.maxDepth})`, parse: parseCount },
  ...(Object.entries(OPERATION_LIMITS) as Array<[OperationLimitName, (typeof OPERATION_LIMITS)[OperationLimitName]]>).map(
    ([key, limit]): OptionDefinition => ({
      flag: limit.flag,
      env: limit.env,
      key,
      valueName: 'N',
      description: `${limit.description} (default ${limit.default})`,
      parse: (raw, source) => parseCountUpTo(raw, source, limit.max),
    }),
  ),
];

/** Like Apollo Server: introspection (and the IDE, which needs it) is on unless NODE_ENV says production. */
function defaultsFor(env: Readonly<Record<string, string | undefined>>): ServerConfig {
  return { port: 8080, host: '127.0.0.1', dataDir: './data', logLevel: 'info', introspection: env.NODE_ENV !== 'production', ide: env.NODE_ENV !== 'production' };
}

export function helpText(): string {
  const lines = [
    'Usage: autograph [options]',
    '',
    'Serves a GraphQL API generated from the schema POSTed to /admin/schema.',
    '',
    'Options (environment variable in brackets):',
  ];
  const usageOf = (option: OptionDefinition) => `  ${option.flag} ${option.valueName}`.trimEnd();
  const width = Math.max(...OPTIONS.map((option) => usageOf(option).length)) + 2;
  for (const option of OPTIONS) {
    lines.push(`${usageOf(option).padEnd(width)}${option.description} [${option.env}]`);
  }
  lines.push(`${'  --help'.padEnd(width)}print this help and exit`);
  lines.push('', `Secrets for @custom(http: { secretHeaders: ["Header:NAME"] }) come from environment variables ${CUSTOM_SECRET_ENV_PREFIX}<NAME>.`);
  return lines.join('\n');
}

/** Reads `argv` (without the node and script paths) and `env`; throws ConfigError on anything unknown or bad. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedCommandLine {
  const fromFlags = new Map<OptionDefinition, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      return { kind: 'help' };
    }
    if (!arg.startsWith('--')) {
      throw new ConfigError(`unexpected argument "${arg}": options start with -- (see --help)`);
    }
    const equals = arg.indexOf('=');
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const option = OPTIONS.find((candidate) => candidate.flag === flag);
    if (!option) {
      throw new ConfigError(`unknown option ${flag} (see --help)`);
    }
    let value: string;
    if (equals !== -1) {
      value = arg.slice(equals + 1);
    } else if (option.valueName === '') {
      value = 'true';
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        throw new ConfigError(`${flag} needs a value: ${flag} ${option.valueName}`);
      }
      value = next;
      i++;
    }
    if (fromFlags.has(option)) {
      throw new ConfigError(`${flag} is given more than once`);
    }
    fromFlags.set(option, value);
  }

  const config: ServerConfig = defaultsFor(env);
  const assign = config as unknown as Record<string, unknown>;
  /** Where each value given came from: its flag or its environment variable. */
  const sources = new Map<keyof ServerConfig, string>();
  for (const option of OPTIONS) {
    const flagValue = fromFlags.get(option);
    const envValue = env[option.env];
    if (flagValue !== undefined) {
      assign[option.key] = option.parse(flagValue, option.flag);
      sources.set(option.key, option.flag);
    } else if (envValue !== undefined && envValue !== '') {
      assign[option.key] = option.parse(envValue, option.env);
      sources.set(option.key, option.env);
    }
  }
  const secrets = customSecretsOf(env);
  if (Object.keys(secrets).length > 0) config.customSecrets = secrets;
  checkPersistedQueryLimits(config, sources);
  return { kind: 'run', config };
}

/** A query larger than the whole LRU could never be kept in memory: refused as a bad combination. */
function checkPersistedQueryLimits(config: ServerConfig, sources: ReadonlyMap<keyof ServerConfig, string>): void {
  const maxQueryBytes = config.persistedMaxQueryBytes ?? PERSISTED_QUERY_DEFAULTS.maxQueryBytes;
  const lruBytes = config.persistedLruBytes ?? PERSISTED_QUERY_DEFAULTS.lruMaxBytes;
  const queryLimit = sources.get('persistedMaxQueryBytes') ?? 'the default --persisted-max-query-bytes';
  if (maxQueryBytes > lruBytes) {
    const lruLimit = sources.get('persistedLruBytes') ?? 'the default --persisted-lru-bytes';
    throw new ConfigError(`${queryLimit} (${maxQueryBytes}) must not exceed ${lruLimit} (${lruBytes}): a persisted query must fit in the LRU`);
  }
  const registeredBytes = config.persistedMaxRegisteredBytes ?? PERSISTED_QUERY_DEFAULTS.maxRegisteredBytes;
  if (maxQueryBytes > registeredBytes) {
    const registeredLimit = sources.get('persistedMaxRegisteredBytes') ?? 'the default --persisted-max-registered-bytes';
    throw new ConfigError(
      `${queryLimit} (${maxQueryBytes}) must not exceed ${registeredLimit} (${registeredBytes}): a persisted query must fit in what clients may register`,
    );
  }
}

export function parsePort(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`${source}: expected a port number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function nonEmpty(raw: string, source: string): string {
  if (raw.trim() === '') {
    throw new ConfigError(`${source}: the value must not be empty`);
  }
  return raw;
}

function parseMongoUri(raw: string, source: string): string {
  if (!/^mongodb(\+srv)?:\/\/./.test(raw)) {
    throw new ConfigError(`${source}: expected a URI starting with mongodb:// or mongodb+srv://, got "${raw}"`);
  }
  return raw;
}

function parseMilliseconds(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 600_000) {
    throw new ConfigError(`${source}: expected milliseconds from 1 to 600000, got "${raw}"`);
  }
  return Number(raw);
}

function parseSwitch(raw: string, source: string): boolean {
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(`${source}: expected true or false, got "${raw}"`);
}

function parseCount(raw: string, source: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${source}: expected a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got "${raw}"`);
  }
  return Number(raw);
}

function parseCountUpTo(raw: string, source: string, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new ConfigError(`${source}: expected a whole number from 1 to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function parseHostList(raw: string, source: string): string[] {
  const hosts = raw.split(',').map((host) => host.trim());
  const bad = hosts.find((host) => host === '' || /[\s/@?#]/.test(host));
  if (bad !== undefined) {
    throw new ConfigError(`${source}: expected comma-separated hosts like api.example.com,127.0.0.1:9000, got "${raw}"`);
  }
  return hosts;
}

/** `CUSTOM_SECRET_<NAME>` variables by `<NAME>`; empty values count as unset. */
function customSecretsOf(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(CUSTOM_SECRET_ENV_PREFIX) && name.length > CUSTOM_SECRET_ENV_PREFIX.length && value !== undefined && value !== '') {
      secrets[name.slice(CUSTOM_SECRET_ENV_PREFIX.length)] = value;
    }
  }
  return secrets;
}

function parseCorsOrigins(raw: string, source: string): CorsOrigins {
  const origins = raw.split(',').map((origin) => origin.trim());
  if (origins.length === 1 && origins[0] === '*') return '*';
  for (const origin of origins) {
    if (origin === '*') {
      throw new ConfigError(`${source}: * allows every origin and cannot be combined with a list, got "${raw}"`);
    }
    if (!isExactOrigin(origin)) {
      throw new ConfigError(
        `${source}: "${origin}" is not an origin; expected scheme://host[:port] with no path or trailing slash, as browsers send it (https://app.example.com)`,
      );
    }
  }
  return origins;
}

/** An origin as a browser's `Origin` header spells it: http(s), a host, maybe a port, nothing after. */
function isExactOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

function parseLogLevel(raw: string, source: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (!level) {
    throw new ConfigError(`${source}: expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level;
}
