/**
 * The `$name` placeholders of a `@custom(http: { body: ... })` template, in order of first use. Quoted
 * strings are skipped: a `$` inside one is text, not a placeholder. Syntax errors are left to the template
 * parser of custom/, which reports them with their column.
 */
export function bodyPlaceholders(template: string): string[] {
  const names: string[] = [];
  let position = 0;
  while (position < template.length) {
    const char = template[position]!;
    if (char === '"') {
      position = afterQuoted(template, position);
    } else if (char === '$') {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(template.slice(position + 1))?.[0];
      if (name && !names.includes(name)) names.push(name);
      position += 1 + (name?.length ?? 0);
    } else {
      position++;
    }
  }
  return names;
}

function afterQuoted(text: string, quoteAt: number): number {
  let position = quoteAt + 1;
  while (position < text.length && text[position] !== '"') position += text[position] === '\\' ? 2 : 1;
  return position + 1;
}

/** The `$name` placeholders in the path of a `@custom(http: { url: ... })` (before any `?` or `#`). */
export function urlPathPlaceholders(url: string): string[] {
  const path = url.split(/[?#]/, 1)[0]!;
  return [...new Set([...path.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!))];
}

/** The `$name` placeholders among the query values of a `@custom(http: { url: ... })` (`?a=$x&b=$y`). */
export function urlQueryPlaceholders(url: string): string[] {
  const query = url.split('#', 1)[0]!.split('?').slice(1).join('?');
  const names: string[] = [];
  for (const pair of query.split('&')) {
    const value = pair.slice(pair.indexOf('=') + 1);
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(value)?.[1];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
