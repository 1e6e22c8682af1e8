/**
 * Dgraph-style body templates of `@custom(http: { body: ... })`: JSON-like text whose values may be
 * `$name` placeholders, e.g. `{ id: $id, author: { name: $name }, tags: [$tag, "fixed"] }`. Object keys may
 * be bare identifiers or quoted strings. A placeholder whose variable is undefined leaves its key out of
 * the object (so optional arguments can be omitted); in an array or at the top level it becomes null.
 */

export type BodyTemplate =
  | { kind: 'variable'; name: string }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'object'; entries: Array<{ key: string; value: BodyTemplate }> }
  | { kind: 'array'; items: BodyTemplate[] };

/** A template that does not parse; `column` is 1-based within the template text. */
export class BodyTemplateError extends Error {
  override readonly name = 'BodyTemplateError';

  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(`${reason} at column ${column} of the body template`);
  }
}

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/;

export function parseBodyTemplate(text: string): BodyTemplate {
  let position = 0;

  const fail = (reason: string): never => {
    throw new BodyTemplateError(reason, position + 1);
  };
  const skipSpace = () => {
    while (position < text.length && /\s/.test(text[position]!)) position++;
  };
  const describeNext = () => (position < text.length ? `"${text[position]}"` : 'the end of the template');
  const expect = (char: string) => {
    skipSpace();
    if (text[position] !== char) fail(`expected "${char}" but found ${describeNext()}`);
    position++;
  };

  const identifier = (): string => {
    const start = position;
    if (!IDENTIFIER_START.test(text[position] ?? '')) fail(`expected a name but found ${describeNext()}`);
    while (position < text.length && IDENTIFIER_PART.test(text[position]!)) position++;
    return text.slice(start, position);
  };

  const quoted = (): string => {
    const start = position;
    position++;
    while (position < text.length && text[position] !== '"') {
      position += text[position] === '\\' ? 2 : 1;
    }
    if (position >= text.length) {
      position = start;
      fail('unterminated string');
    }
    position++;
    try {
      return JSON.parse(text.slice(start, position)) as string;
    } catch {
      position = start;
      return fail('invalid string escape');
    }
  };

  const value = (): BodyTemplate => {
    skipSpace();
    const char = text[position];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '$') {
      position++;
      return { kind: 'variable', name: identifier() };
    }
    if (char === '"') return { kind: 'literal', value: quoted() };
    const number = NUMBER.exec(text.slice(position));
    if (number) {
      position += number[0].length;
      return { kind: 'literal', value: Number(number[0]) };
    }
    for (const [word, literal] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, position) && !IDENTIFIER_PART.test(text[position + word.length] ?? '')) {
        position += word.length;
        return { kind: 'literal', value: literal };
      }
    }
    return fail(`expected a value ($name, object, array, string, number, true, false or null) but found ${describeNext()}`);
  };

  const object = (): BodyTemplate => {
    position++;
    const entries: Array<{ key: string; value: BodyTemplate }> = [];
    const seen = new Set<string>();
    skipSpace();
    while (text[position] !== '}') {
      skipSpace();
      const keyStart = position;
      const key = text[position] === '"' ? quoted() : identifier();
      if (seen.has(key)) {
        position = keyStart;
        fail(`the key "${key}" appears twice`);
      }
      seen.add(key);
      expect(':');
      entries.push({ key, value: value() });
      skipSpace();
      if (text[position] === ',') {
        position++;
        skipSpace();
      } else if (text[position] !== '}') {
        fail(`expected "," or "}" but found ${describeNext()}`);
      }
    }
    position++;
    return { kind: 'object', entries };
  };

  const array = (): BodyTemplate => {
    position++;
    const items: BodyTemplate[] = [];
    skipSpace();
    while (text[position] !== ']') {
      items.push(value());
      skipSpace();
      if (text[position] === ',') {
        position++;
        skipSpace();
      } else if (text[position] !== ']') {
        fail(`expected "," or "]" but found ${describeNext()}`);
      }
    }
    position++;
    return { kind: 'array', items };
  };

  const template = value();
  skipSpace();
  if (position < text.length) fail(`unexpected ${describeNext()} after the end of the template`);
  return template;
}

/** Names of the `$placeholders` a template uses, in order of first use. */
export function bodyTemplateVariables(template: BodyTemplate): string[] {
  const names = new Set<string>();
  const walk = (node: BodyTemplate) => {
    if (node.kind === 'variable') names.add(node.name);
    else if (node.kind === 'object') node.entries.forEach((entry) => walk(entry.value));
    else if (node.kind === 'array') node.items.forEach(walk);
  };
  walk(template);
  return [...names];
}

/** The JSON value of a template with its placeholders replaced by `lookup(name)`. */
export function renderBodyTemplate(template: BodyTemplate, lookup: (name: string) => unknown): unknown {
  switch (template.kind) {
    case 'variable':
      return lookup(template.name) ?? null;
    case 'literal':
      return template.value;
    case 'array':
      return template.items.map((item) => renderBodyTemplate(item, lookup));
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const { key, value } of template.entries) {
        if (value.kind === 'variable' && lookup(value.name) === undefined) continue;
        result[key] = renderBodyTemplate(value, lookup);
      }
      return result;
    }
  }
}
