import { ConfigError, helpText, parseCommandLine, type ServerConfig } from '../../src/server/config';

function run(argv: string[], env: Record<string, string | undefined> = {}): ServerConfig {
  const parsed = parseCommandLine(argv, env);
  if (parsed.kind !== 'run') throw new Error(`expected a run config, got ${parsed.kind}`);
  return parsed.config;
}

function errorOf(argv: string[], env: Record<string, string | undefined> = {}): string {
  try {
    parseCommandLine(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseCommandLine', () => {
  it('uses the defaults when nothing is given', () => {
    expect(run([])).toEqual({ port: 8080, host: '127.0.0.1', dataDir: './data', logLevel: 'info', introspection: true, ide: true });
  });

  it('reads every flag, in both "--flag value" and "--flag=value" forms', () => {
    expect(
      run([
        '--port', '4001', '--host=0.0.0.0', '--data', '/tmp/x', '--schema=schema.graphql',
        '--mongo', 'mongodb://db:27017/app', '--admin-token', 's3cret', '--log-level=debug',
      ]),
    ).toEqual({
      port: 4001,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      schemaFile: 'schema.graphql',
      mongoUri: 'mongodb://db:27017/app',
      adminToken: 's3cret',
      logLevel: 'debug',
      introspection: true,
      ide: true,
    });
  });

  it('reads the environment equivalents', () => {
    expect(
      run([], {
        PORT: '0', HOST: '::1', DATA_DIR: 'd', SCHEMA_FILE: 's.graphql',
        MONGODB_URI: 'mongodb+srv://cluster.example.net', ADMIN_TOKEN: 't', LOG_LEVEL: 'warn',
      }),
    ).toEqual({
      port: 0, host: '::1', dataDir: 'd', schemaFile: 's.graphql',
      mongoUri: 'mongodb+srv://cluster.example.net', adminToken: 't', logLevel: 'warn', introspection: true, ide: true,
    });
  });

  it.each([
    ['no flag, NODE_ENV unset', [], {}, true],
    ['no flag, NODE_ENV=development', [], { NODE_ENV: 'development' }, true],
    ['no flag, NODE_ENV=production', [], { NODE_ENV: 'production' }, false],
    ['--introspection under production', ['--introspection'], { NODE_ENV: 'production' }, true],
    ['--introspection=false outside production', ['--introspection=false'], {}, false],
    ['INTROSPECTION=true under production', [], { NODE_ENV: 'production', INTROSPECTION: 'true' }, true],
    ['INTROSPECTION=0', [], { INTROSPECTION: '0' }, false],
  ])('introspection: %s', (_case, argv, env, expected) => {
    expect(run(argv, env).introspection).toBe(expected);
  });

  it.each([
    ['no flag: off (unset)', [], {}, undefined],
    ['--csrf-prevention', ['--csrf-prevention'], {}, true],
    ['--csrf-prevention=true', ['--csrf-prevention=true'], {}, true],
    ['--csrf-prevention=false', ['--csrf-prevention=false'], {}, false],
    ['CSRF_PREVENTION=true', [], { CSRF_PREVENTION: 'true' }, true],
    ['CSRF_PREVENTION=0', [], { CSRF_PREVENTION: '0' }, false],
    ['a flag wins over its variable', ['--csrf-prevention=false'], { CSRF_PREVENTION: 'true' }, false],
  ])('csrf prevention: %s', (_case, argv, env, expected) => {
    expect(run(argv, env).csrfPrevention).toBe(expected);
  });

  it('lists --csrf-prevention in the help, and refuses a value that is not a boolean', () => {
    expect(helpText()).toMatch(/--csrf-prevention +Apollo's CSRF prevention: refuse a GET without a header .*\(default off; --csrf-prevention=false turns it off\) \[CSRF_PREVENTION\]/);
    expect(errorOf(['--csrf-prevention=yes'])).toBe('--csrf-prevention: expected true or false, got "yes"');
  });

  it.each([
    ['no flag, NODE_ENV unset', [], {}, true],
    ['no flag, NODE_ENV=production', [], { NODE_ENV: 'production' }, false],
    ['--ide under production', ['--ide'], { NODE_ENV: 'production' }, true],
    ['--ide=false outside production', ['--ide=false'], {}, false],
    ['IDE=true under production', [], { NODE_ENV: 'production', IDE: 'true' }, true],
    ['IDE=false', [], { IDE: 'false' }, false],
  ])('ide: %s', (_case, argv, env, expected) => {
    expect(run(argv, env).ide).toBe(expected);
  });

  it.each([
    [['--cors-origins', '*'], {}, '*'],
    [['--cors-origins', 'https://app.example.com'], {}, ['https://app.example.com']],
    [[], { CORS_ORIGINS: 'https://a.example.com, http://localhost:3000' }, ['https://a.example.com', 'http://localhost:3000']],
  ])('reads CORS origins from %j %j', (argv, env, expected) => {
    expect(run(argv, env).corsOrigins).toEqual(expected);
  });

  it.each([
    ['https://app.example.com/', '--cors-origins: "https://app.example.com/" is not an origin; expected scheme://host[:port] with no path or trailing slash, as browsers send it (https://app.example.com)'],
    ['app.example.com', '--cors-origins: "app.example.com" is not an origin; expected scheme://host[:port] with no path or trailing slash, as browsers send it (https://app.example.com)'],
    ['https://a.example.com,*', '--cors-origins: * allows every origin and cannot be combined with a list, got "https://a.example.com,*"'],
    ['https://a.example.com,', '--cors-origins: "" is not an origin; expected scheme://host[:port] with no path or trailing slash, as browsers send it (https://app.example.com)'],
  ])('refuses the CORS origins %j', (raw, message) => {
    expect(errorOf(['--cors-origins', raw])).toBe(message);
  });

  it('reads the body limit from --max-body-bytes or MAX_BODY_BYTES', () => {
    expect(run(['--max-body-bytes', '4096'])).toMatchObject({ maxBodyBytes: 4096 });
    expect(run([], { MAX_BODY_BYTES: '65536' })).toMatchObject({ maxBodyBytes: 65536 });
    expect(errorOf(['--max-body-bytes', '0'])).toBe(`--max-body-bytes: expected a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got "0"`);
  });

  it('reads the MongoDB check interval from --store-check-ms or STORE_CHECK_MS', () => {
    expect(run(['--store-check-ms', '1500'])).toMatchObject({ storeCheckMs: 1500 });
    expect(run([], { STORE_CHECK_MS: '750' })).toMatchObject({ storeCheckMs: 750 });
    expect(errorOf(['--store-check-ms', '0'])).toBe('--store-check-ms: expected milliseconds from 1 to 600000, got "0"');
  });

  it('lets a flag win over its environment variable, and treats an empty variable as unset', () => {
    expect(run(['--port', '5000'], { PORT: '6000', HOST: '' })).toMatchObject({ port: 5000, host: '127.0.0.1' });
  });

  it('answers help for --help and -h, whatever else is given', () => {
    expect(parseCommandLine(['--port', 'x', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-h'], {})).toEqual({ kind: 'help' });
    expect(helpText()).toMatch(/--data DIR .*\[DATA_DIR\]/);
  });

  it.each([
    [['--prot', '1'], 'unknown option --prot (see --help)'],
    [['serve'], 'unexpected argument "serve": options start with -- (see --help)'],
    [['--port'], '--port needs a value: --port N'],
    [['--port', '--host', 'x'], '--port needs a value: --port N'],
    [['--port', '80a'], '--port: expected a port number from 0 to 65535, got "80a"'],
    [['--port', '65536'], '--port: expected a port number from 0 to 65535, got "65536"'],
    [['--port', '-1'], '--port: expected a port number from 0 to 65535, got "-1"'],
    [['--port=-1'], '--port: expected a port number from 0 to 65535, got "-1"'],
    [['--log-level', 'loud'], '--log-level: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [['--mongo', 'localhost:27017'], '--mongo: expected a URI starting with mongodb:// or mongodb+srv://, got "localhost:27017"'],
    [['--data='], '--data: the value must not be empty'],
    [['--port', '1', '--port', '2'], '--port is given more than once'],
  ])('rejects %j: %s', (argv, message) => {
    expect(errorOf(argv)).toBe(message);
  });

  describe('persisted queries', () => {
    it('reads --persisted-only as a switch, alone or with =true/=false, and the cache limits', () => {
      expect(run(['--persisted-only', '--port', '1'])).toMatchObject({ persistedOnly: true, port: 1 });
      expect(run(['--persisted-only=false'])).toMatchObject({ persistedOnly: false });
      expect(run(['--persisted-only=true', '--persisted-lru-entries', '500', '--persisted-lru-bytes=1048576', '--persisted-max-query-bytes', '4096'])).toMatchObject({
        persistedOnly: true,
        persistedLruEntries: 500,
        persistedLruBytes: 1048576,
        persistedMaxQueryBytes: 4096,
      });
    });

    it('reads PERSISTED_ONLY and the limits from the environment; a flag wins', () => {
      expect(
        run([], { PERSISTED_ONLY: 'true', PERSISTED_LRU_ENTRIES: '20', PERSISTED_LRU_BYTES: '70000', PERSISTED_MAX_QUERY_BYTES: '1000' }),
      ).toMatchObject({ persistedOnly: true, persistedLruEntries: 20, persistedLruBytes: 70000, persistedMaxQueryBytes: 1000 });
      expect(run([], { PERSISTED_ONLY: 'FALSE' }).persistedOnly).toBe(false);
      expect(run(['--persisted-only=false'], { PERSISTED_ONLY: '1' }).persistedOnly).toBe(false);
    });

    it('reads the limits on client registrations from flags and environment; a flag wins', () => {
      expect(run(['--persisted-max-registered', '500', '--persisted-max-registered-bytes=2000000'])).toMatchObject({
        persistedMaxRegistered: 500,
        persistedMaxRegisteredBytes: 2000000,
      });
      expect(run(['--persisted-max-registered=7'], { PERSISTED_MAX_REGISTERED: '8', PERSISTED_MAX_REGISTERED_BYTES: '70000' })).toMatchObject({
        persistedMaxRegistered: 7,
        persistedMaxRegisteredBytes: 70000,
      });
      expect(run([])).not.toHaveProperty('persistedMaxRegistered');
      expect(helpText()).toMatch(/--persisted-max-registered N +most queries clients may register .*least recently used.*\(default 10000\) \[PERSISTED_MAX_REGISTERED\]/);
      expect(helpText()).toMatch(/--persisted-max-registered-bytes BYTES .*\(default 33554432\) \[PERSISTED_MAX_REGISTERED_BYTES\]/);
    });

    it('leaves them unset by default (the plugin\'s defaults apply, named in the help)', () => {
      expect(run([])).not.toHaveProperty('persistedOnly');
      expect(helpText()).toMatch(/--persisted-only +safelist mode.*\[PERSISTED_ONLY\]/);
      expect(helpText()).toMatch(/--persisted-lru-entries N +most persisted queries kept in memory \(default 10000\) \[PERSISTED_LRU_ENTRIES\]/);
      expect(helpText()).toMatch(/--persisted-lru-bytes BYTES .*\(default 33554432\) \[PERSISTED_LRU_BYTES\]/);
      expect(helpText()).toMatch(/--persisted-max-query-bytes BYTES .*\(default 65536\) \[PERSISTED_MAX_QUERY_BYTES\]/);
    });

    it.each([
      [['--persisted-only=yes'], [], '--persisted-only: expected true or false, got "yes"'],
      [[], ['PERSISTED_ONLY', 'on'], 'PERSISTED_ONLY: expected true or false, got "on"'],
      [['--persisted-lru-entries', '0'], [], '--persisted-lru-entries: expected a whole number from 1 to 9007199254740991, got "0"'],
      [[], ['PERSISTED_LRU_BYTES', '32MiB'], 'PERSISTED_LRU_BYTES: expected a whole number from 1 to 9007199254740991, got "32MiB"'],
      [['--persisted-max-query-bytes'], [], '--persisted-max-query-bytes needs a value: --persisted-max-query-bytes BYTES'],
      [
        ['--persisted-max-query-bytes', '2000', '--persisted-lru-bytes', '1000'],
        [],
        '--persisted-max-query-bytes (2000) must not exceed --persisted-lru-bytes (1000): a persisted query must fit in the LRU',
      ],
      [
        [],
        ['PERSISTED_MAX_QUERY_BYTES', '40000000'],
        'PERSISTED_MAX_QUERY_BYTES (40000000) must not exceed the default --persisted-lru-bytes (33554432): a persisted query must fit in the LRU',
      ],
      [['--persisted-max-registered', '0'], [], '--persisted-max-registered: expected a whole number from 1 to 9007199254740991, got "0"'],
      [
        ['--persisted-max-query-bytes', '5000'],
        ['PERSISTED_MAX_REGISTERED_BYTES', '4000'],
        '--persisted-max-query-bytes (5000) must not exceed PERSISTED_MAX_REGISTERED_BYTES (4000): a persisted query must fit in what clients may register',
      ],
    ])('rejects %j with environment %j: %s', (argv, envEntry, message) => {
      const env = envEntry.length === 2 ? { [envEntry[0]!]: envEntry[1]! } : {};
      expect(errorOf(argv, env)).toBe(message);
    });
  });

  describe('request budget', () => {
    it('reads --request-timeout-ms and --max-result-objects, or their environment variables; a flag wins', () => {
      expect(run(['--request-timeout-ms', '2500', '--max-result-objects=5000'])).toMatchObject({ requestTimeoutMs: 2500, maxResultObjects: 5000 });
      expect(run([], { REQUEST_TIMEOUT_MS: '30000', MAX_RESULT_OBJECTS: '7' })).toMatchObject({ requestTimeoutMs: 30000, maxResultObjects: 7 });
      expect(run(['--request-timeout-ms=100'], { REQUEST_TIMEOUT_MS: '30000' }).requestTimeoutMs).toBe(100);
    });

    it('leaves them unset by default (limits/ defaults apply, named in the help)', () => {
      expect(run([])).not.toHaveProperty('requestTimeoutMs');
      expect(run([])).not.toHaveProperty('maxResultObjects');
      expect(helpText()).toMatch(/--request-timeout-ms MS +time limit of one GraphQL request; MongoDB reads get it as maxTimeMS \(default 10000\) \[REQUEST_TIMEOUT_MS\]/);
      expect(helpText()).toMatch(/--max-result-objects N +most objects one GraphQL answer may hold \(default 100000\) \[MAX_RESULT_OBJECTS\]/);
    });

    it.each([
      [['--request-timeout-ms', '0'], {}, '--request-timeout-ms: expected milliseconds from 1 to 600000, got "0"'],
      [[], { REQUEST_TIMEOUT_MS: '10s' }, 'REQUEST_TIMEOUT_MS: expected milliseconds from 1 to 600000, got "10s"'],
      [['--max-result-objects=-1'], {}, '--max-result-objects: expected a whole number from 1 to 9007199254740991, got "-1"'],
      [[], { MAX_RESULT_OBJECTS: '1e5' }, 'MAX_RESULT_OBJECTS: expected a whole number from 1 to 9007199254740991, got "1e5"'],
    ])('rejects %j with environment %j', (argv, env, message) => {
      expect(errorOf(argv, env)).toBe(message);
    });
  });

  describe('operation limits', () => {
    it('reads each --max-* flag and its environment variable; a flag wins', () => {
      expect(
        run(['--max-tokens', '2000', '--max-nesting=100', '--max-depth', '10', '--max-aliases=5', '--max-directives', '6', '--max-cost=5000', '--max-input-depth', '8'], { MAX_DEPTH: '99' }),
      ).toMatchObject({ maxTokens: 2000, maxNesting: 100, maxDepth: 10, maxAliases: 5, maxDirectives: 6, maxCost: 5000, maxInputDepth: 8 });
      expect(run([], { MAX_TOKENS: '1', MAX_NESTING: '2', MAX_DEPTH: '3', MAX_ALIASES: '4', MAX_DIRECTIVES: '5', MAX_COST: '6', MAX_INPUT_DEPTH: '7' })).toMatchObject({
        maxTokens: 1, maxNesting: 2, maxDepth: 3, maxAliases: 4, maxDirectives: 5, maxCost: 6, maxInputDepth: 7,
      });
    });

    it('leaves them unset by default; the help names each default and variable', () => {
      expect(run([])).not.toHaveProperty('maxCost');
      expect(helpText()).toMatch(/--max-tokens N +most lexical tokens in one operation document \(default 15000\) \[MAX_TOKENS\]/);
      expect(helpText()).toMatch(/--max-nesting N +.*\(default 500\) \[MAX_NESTING\]/);
      expect(helpText()).toMatch(/--max-depth N +.*\(default 64\) \[MAX_DEPTH\]/);
      expect(helpText()).toMatch(/--max-aliases N +.*\(default 1000\) \[MAX_ALIASES\]/);
      expect(helpText()).toMatch(/--max-directives N +.*\(default 100\) \[MAX_DIRECTIVES\]/);
      expect(helpText()).toMatch(/--max-cost N +.*\(default 10000000000\) \[MAX_COST\]/);
      expect(helpText()).toMatch(/--max-input-depth N +.*\(default 32\) \[MAX_INPUT_DEPTH\]/);
    });

    it.each([
      [['--max-depth', '0'], {}, '--max-depth: expected a whole number from 1 to 1000, got "0"'],
      [['--max-nesting=1001'], {}, '--max-nesting: expected a whole number from 1 to 1000, got "1001"'],
      [[], { MAX_INPUT_DEPTH: '129' }, 'MAX_INPUT_DEPTH: expected a whole number from 1 to 128, got "129"'],
      [[], { MAX_COST: '1e7' }, 'MAX_COST: expected a whole number from 1 to 9007199254740991, got "1e7"'],
    ])('rejects %j with environment %j: %s', (argv, env, message) => {
      expect(errorOf(argv, env)).toBe(message);
    });
  });

  it('names the environment variable that holds a bad value', () => {
    expect(errorOf([], { PORT: 'eighty' })).toBe('PORT: expected a port number from 0 to 65535, got "eighty"');
    expect(errorOf([], { LOG_LEVEL: 'INFO' })).toBe('LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "INFO"');
  });
});
