/**
 * The `regexp` operator's pattern rules, shared by both backends and by `@auth` role rules. A pattern is
 * written as Dgraph writes it, `/pattern/` or `/pattern/i` (`i`: case-insensitive, the only flag Dgraph
 * documents), and must be valid RE2 syntax: no backreferences, lookaround or possessive quantifiers, so it
 * runs in time linear in the text. MongoDB receives the same pattern as `$regex`; the embedded store runs
 * it with `re2js` (a pure-JavaScript RE2), never with a backtracking engine.
 */
import { RE2JS } from 're2js';
import { QueryArgumentError } from './errors.js';

export interface RegexpSpec {
  pattern: string;
  /** What a client may write is `''` or `'i'`; MongoDB's `m` and `s` are understood too. */
  flags: string;
}

export interface LinearRegexp {
  /** Whether the pattern matches somewhere in `text` (unanchored, as `$regex` does). */
  test(text: string): boolean;
}

/** A regexp a client wrote that cannot be run: a client mistake (`BAD_USER_INPUT`), not a server fault. */
export class RegexpArgumentError extends QueryArgumentError {
  /** graphql-js copies an original error's `extensions` into the error the client receives. */
  readonly extensions = { code: 'BAD_USER_INPUT' } as const;

  constructor(message: string) {
    super(message);
    this.name = 'RegexpArgumentError';
  }
}

const LITERAL = /^\/(.*)\/([^/]*)$/s;
const ALLOWED_FLAGS = ['i'];

/**
 * `/pattern/flags` → its pattern and flags, checked to run under RE2. `where` names the field (or claim) for
 * the messages, e.g. `Task.title regexp`.
 */
export function parseRegexp(where: string, value: unknown): RegexpSpec {
  const literal = typeof value === 'string' ? LITERAL.exec(value) : null;
  if (!literal) throw new RegexpArgumentError(`${where}: expected a regular expression written /pattern/ or /pattern/i, got ${JSON.stringify(value)}`);
  const [, pattern, flags] = literal as unknown as [string, string, string];
  const unknownFlag = [...flags].find((flag) => !ALLOWED_FLAGS.includes(flag));
  if (unknownFlag !== undefined) throw new RegexpArgumentError(`${where}: flag "${unknownFlag}" is not allowed (the only flag is i, for case-insensitive)`);
  const repeatedFlag = [...flags].find((flag, position) => flags.indexOf(flag) !== position);
  if (repeatedFlag !== undefined) throw new RegexpArgumentError(`${where}: flag "${repeatedFlag}" is given twice`);
  if (pattern.length === 0) throw new RegexpArgumentError(`${where}: the pattern is empty`);
  const spec = { pattern, flags };
  let re2: RE2JS;
  try {
    re2 = compiled(spec);
  } catch (error) {
    throw new RegexpArgumentError(`${where}: ${shown(value as string)} is not a regular expression RE2 can run: ${syntaxProblem(error)}`);
  }
  const size = programSize(re2);
  if (size > MAX_PROGRAM_SIZE) {
    throw new RegexpArgumentError(
      `${where}: ${shown(value as string)} is too large: it compiles to ${size} instructions, more than the limit of ${MAX_PROGRAM_SIZE} (each repetition of a counted repeat such as {100} adds its own)`,
    );
  }
  return spec;
}

/**
 * Matching is linear in the text but proportional to the compiled program too: `[a-z]{1000}` repeated 100
 * times (1,100 characters) would take minutes on one long value. Real patterns compile to tens of instructions.
 */
export const MAX_PROGRAM_SIZE = 1000;

/** The client's pattern in a message, cut short when long. */
function shown(literal: string): string {
  return literal.length <= 80 ? literal : `${literal.slice(0, 77)}...`;
}

function programSize(re2: RE2JS): number {
  return (re2.re2Input.prog as { numInst(): number }).numInst();
}

/** The matcher of a pattern `parseRegexp` accepted (compiled once, then cached). */
export function linearRegexp(spec: RegexpSpec): LinearRegexp {
  const re2 = compiled(spec);
  return { test: (text) => re2.matcher(text).find() };
}

/** Compiling costs tens of microseconds; the same few patterns come back request after request. */
const CACHE_LIMIT = 500;
const cache = new Map<string, RE2JS>();

function compiled({ pattern, flags }: RegexpSpec): RE2JS {
  const key = `${flags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const re2 = RE2JS.compile(flags.includes('m') ? pattern : withPcreEnd(pattern), engineFlags(flags));
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, re2);
  return re2;
}

/**
 * MongoDB runs `$regex` with PCRE, whose `$` (outside multiline mode) matches at the end of the text or
 * before a newline that ends it; RE2's matches only at the very end. For a yes/no match, `\n?\z` in place
 * of each `$` outside a character class gives PCRE's answer, so both backends agree. A pattern that turns
 * multiline mode on inline (`(?m)`) is left as it is: there both engines' `$` match before every newline.
 */
export function withPcreEnd(pattern: string): string {
  if (/\(\?[a-zA-Z]*m/.test(pattern)) return pattern;
  let translated = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      translated += char + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      const posixClass = char === '[' && pattern[i + 1] === ':' ? pattern.indexOf(':]', i + 2) : -1;
      if (posixClass >= 0) {
        // `[:alpha:]` inside a class: its `]` does not end the class.
        translated += pattern.slice(i, posixClass + 2);
        i = posixClass + 1;
        continue;
      }
      if (char === ']') inClass = false;
      translated += char;
    } else if (char === '[') {
      inClass = true;
      translated += char;
      // A `]` right after `[` or `[^` is a literal member, not the class's end.
      if (pattern[i + 1] === '^') translated += pattern[++i];
      if (pattern[i + 1] === ']') translated += pattern[++i];
    } else {
      translated += char === '$' ? '(?:\\n?\\z)' : char;
    }
  }
  return translated;
}

const ENGINE_FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

function engineFlags(flags: string): number {
  let combined = 0;
  for (const flag of flags) {
    const bit = ENGINE_FLAGS[flag];
    if (bit === undefined) throw new Error(`regular expression flag "${flag}" is not supported (known: ${Object.keys(ENGINE_FLAGS).join(', ')})`);
    combined |= bit;
  }
  return combined;
}

/** re2js says `error parsing regexp: invalid escape sequence: \`\\1\``; the prefix adds nothing. */
function syntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp: /, '');
}
