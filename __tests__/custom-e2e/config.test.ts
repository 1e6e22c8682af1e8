import { ConfigError, helpText, parseCommandLine, type ServerConfig } from '../../src/server/config';

/** The custom-logic settings of the command line and environment. */

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

test('reads the lambda and @custom flags', () => {
  expect(run(['--lambda', 'l.js', '--lambda-timeout-ms=1500', '--custom-allow', 'api.example.com, 127.0.0.1:9000,*.internal', '--custom-timeout-ms', '300']))
    .toMatchObject({ lambdaFile: 'l.js', lambdaTimeoutMs: 1500, customAllow: ['api.example.com', '127.0.0.1:9000', '*.internal'], customTimeoutMs: 300 });
});

test('reads their environment equivalents, and secrets from CUSTOM_SECRET_<NAME>', () => {
  expect(run([], {
    LAMBDA_FILE: 'x.js', LAMBDA_TIMEOUT_MS: '900', CUSTOM_ALLOW: '*', CUSTOM_TIMEOUT_MS: '50',
    CUSTOM_SECRET_API_KEY: 'k1', CUSTOM_SECRET_Github_Token: 'k2', CUSTOM_SECRET_EMPTY: '', CUSTOM_SECRET_: 'nameless',
  })).toEqual({
    port: 8080, host: '127.0.0.1', dataDir: './data', logLevel: 'info', introspection: true, ide: true,
    lambdaFile: 'x.js', lambdaTimeoutMs: 900, customAllow: ['*'], customTimeoutMs: 50,
    customSecrets: { API_KEY: 'k1', Github_Token: 'k2' },
  });
});

test('leaves the settings out when nothing is given', () => {
  expect(run([], { CUSTOM_ALLOW: '' })).toEqual({ port: 8080, host: '127.0.0.1', dataDir: './data', logLevel: 'info', introspection: true, ide: true });
});

test('refuses bad values with the flag and what is expected', () => {
  expect(errorOf(['--lambda-timeout-ms', '0'])).toBe('--lambda-timeout-ms: expected milliseconds from 1 to 600000, got "0"');
  expect(errorOf([], { CUSTOM_TIMEOUT_MS: '2s' })).toBe('CUSTOM_TIMEOUT_MS: expected milliseconds from 1 to 600000, got "2s"');
  expect(errorOf(['--custom-allow', 'a.com,,b.com'])).toBe('--custom-allow: expected comma-separated hosts like api.example.com,127.0.0.1:9000, got "a.com,,b.com"');
  expect(errorOf(['--custom-allow', 'https://a.com/x'])).toMatch(/^--custom-allow: expected comma-separated hosts/);
});

test('the help names the new flags and the secret variables', () => {
  const help = helpText();
  expect(help).toMatch(/--lambda FILE .*\[LAMBDA_FILE\]/);
  expect(help).toMatch(/--custom-allow HOSTS .*\[CUSTOM_ALLOW\]/);
  expect(help).toContain('CUSTOM_SECRET_<NAME>');
});

describe('the lambda process limits', () => {
  test.each([
    [['--lambda-memory-mb', '64'], {}, { lambdaMemoryMb: 64 }],
    [['--lambda-max-rss-mb=300'], {}, { lambdaMaxResidentMb: 300 }],
    [['--lambda-max-result-bytes', '1000'], {}, { lambdaMaxResultBytes: 1000 }],
    [[], { LAMBDA_MEMORY_MB: '96', LAMBDA_MAX_RSS_MB: '400', LAMBDA_MAX_RESULT_BYTES: '2048' }, { lambdaMemoryMb: 96, lambdaMaxResidentMb: 400, lambdaMaxResultBytes: 2048 }],
    [['--lambda-max-result-bytes', '10'], { LAMBDA_MAX_RESULT_BYTES: '2048' }, { lambdaMaxResultBytes: 10 }],
  ])('%j with %j reads %j', (argv, env, expected) => {
    expect(run(argv, env)).toMatchObject(expected);
  });

  test('refuses values that are not whole numbers of at least 1', () => {
    expect(errorOf(['--lambda-memory-mb', '0'])).toBe('--lambda-memory-mb: expected a whole number from 1 to 9007199254740991, got "0"');
    expect(errorOf([], { LAMBDA_MAX_RSS_MB: '1.5' })).toBe('LAMBDA_MAX_RSS_MB: expected a whole number from 1 to 9007199254740991, got "1.5"');
    expect(errorOf(['--lambda-max-result-bytes', '4MB'])).toBe('--lambda-max-result-bytes: expected a whole number from 1 to 9007199254740991, got "4MB"');
  });

  test('the help names them with their defaults', () => {
    const help = helpText();
    expect(help).toMatch(/--lambda-memory-mb MB +heap limit of the lambda process.*\(default 128\) \[LAMBDA_MEMORY_MB\]/);
    expect(help).toMatch(/--lambda-max-rss-mb MB +.*\(default 2 x --lambda-memory-mb \+ 128\) \[LAMBDA_MAX_RSS_MB\]/);
    expect(help).toMatch(/--lambda-max-result-bytes BYTES +.*\(default 4194304\) \[LAMBDA_MAX_RESULT_BYTES\]/);
  });
});
