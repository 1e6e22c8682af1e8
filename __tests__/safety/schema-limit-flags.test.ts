import { ConfigError, helpText, parseCommandLine, type ServerConfig } from '../../src/server/config';

function run(argv: string[], env: Record<string, string | undefined> = {}): ServerConfig {
  const parsed = parseCommandLine(argv, env);
  if (parsed.kind !== 'run') throw new Error(`expected a run config, got ${parsed.kind}`);
  return parsed.config;
}

describe('--schema-max-* flags', () => {
  test('flags, environment variables, and a flag winning over its variable', () => {
    expect(run(['--schema-max-bytes', '2048', '--schema-max-types=50', '--schema-max-fields', '500', '--schema-max-depth=8'])).toMatchObject({
      schemaMaxBytes: 2048,
      schemaMaxTypes: 50,
      schemaMaxFields: 500,
      schemaMaxDepth: 8,
    });
    expect(run([], { SCHEMA_MAX_BYTES: '10', SCHEMA_MAX_TYPES: '2', SCHEMA_MAX_FIELDS: '3', SCHEMA_MAX_DEPTH: '4' })).toMatchObject({
      schemaMaxBytes: 10,
      schemaMaxTypes: 2,
      schemaMaxFields: 3,
      schemaMaxDepth: 4,
    });
    expect(run(['--schema-max-types', '7'], { SCHEMA_MAX_TYPES: '9' }).schemaMaxTypes).toBe(7);
  });

  test('unset by default; the help names each default and variable', () => {
    expect(run([])).not.toHaveProperty('schemaMaxTypes');
    expect(helpText()).toMatch(/--schema-max-bytes BYTES +largest schema an upload may send \(default 1048576\) \[SCHEMA_MAX_BYTES\]/);
    expect(helpText()).toMatch(/--schema-max-types N +most types and interfaces in a schema \(default 500\) \[SCHEMA_MAX_TYPES\]/);
    expect(helpText()).toMatch(/--schema-max-fields N +most fields over all types of a schema \(default 10000\) \[SCHEMA_MAX_FIELDS\]/);
    expect(helpText()).toMatch(/--schema-max-depth N +deepest nesting of brackets in a schema \(default 32\) \[SCHEMA_MAX_DEPTH\]/);
  });

  test.each([
    [['--schema-max-types', '0'], '--schema-max-types: expected a whole number from 1 to 9007199254740991, got "0"'],
    [['--schema-max-depth=deep'], '--schema-max-depth: expected a whole number from 1 to 9007199254740991, got "deep"'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCommandLine(argv, {})).toThrow(new ConfigError(message));
  });
});
