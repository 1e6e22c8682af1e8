import { UsageError } from './command.js';

/** A command line split into its positional arguments and the `--flags` it may carry (`--name value` for valued ones). */
export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string>;
}

/**
 * Splits `args`: `switches` are bare flags (`--force`), `valued` take the next argument (`--limit 5`) or
 * `--limit=5`. Any other `--flag` is a usage error, as is a wrong number of positional arguments.
 */
export function parseArgs(args: readonly string[], spec: { positional: string[]; switches?: string[]; valued?: string[] }): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], flags: new Set(), values: new Map() };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const [name, inline] = splitOnce(arg.slice(2), '=');
    if (spec.switches?.includes(name) && inline === undefined) {
      parsed.flags.add(name);
    } else if (spec.valued?.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      parsed.values.set(name, value);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  if (parsed.positional.length !== spec.positional.length) {
    const wanted = spec.positional.length === 0 ? 'no arguments' : spec.positional.map((name) => `<${name}>`).join(' ');
    throw new UsageError(`expected ${wanted}, got ${parsed.positional.length === 0 ? 'none' : parsed.positional.join(' ')}`);
  }
  return parsed;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
