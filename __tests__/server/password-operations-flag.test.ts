import { ConfigError, helpText, parseCommandLine } from '../../src/server/config';

/** `--max-password-operations` / `MAX_PASSWORD_OPERATIONS`: the per-request bcrypt budget of `@secret`. */

function parsed(argv: string[], env: Record<string, string | undefined> = {}) {
  const result = parseCommandLine(argv, env);
  if (result.kind !== 'run') throw new Error(`expected a run config, got ${result.kind}`);
  return result.config;
}

describe('--max-password-operations', () => {
  it('reads the flag or its environment variable; the flag wins', () => {
    expect(parsed(['--max-password-operations', '3']).maxPasswordOperations).toBe(3);
    expect(parsed([], { MAX_PASSWORD_OPERATIONS: '25' }).maxPasswordOperations).toBe(25);
    expect(parsed(['--max-password-operations=4'], { MAX_PASSWORD_OPERATIONS: '25' }).maxPasswordOperations).toBe(4);
    expect(parsed([]).maxPasswordOperations).toBeUndefined();
  });

  it('refuses what is not a positive whole number', () => {
    expect(() => parseCommandLine(['--max-password-operations=0'], {})).toThrow(ConfigError);
    expect(() => parseCommandLine([], { MAX_PASSWORD_OPERATIONS: 'ten' })).toThrow(/MAX_PASSWORD_OPERATIONS: expected a whole number from 1/);
  });

  it('is documented in --help with its default', () => {
    expect(helpText()).toMatch(/--max-password-operations N +most @secret passwords one GraphQL request may hash or check with bcrypt \(default 10\) \[MAX_PASSWORD_OPERATIONS\]/);
  });
});
