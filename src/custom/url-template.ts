/**
 * `$name` placeholders in the `url` of `@custom(http:)`, filled with URL-encoded values. In the query
 * string, a parameter whose whole value is one placeholder is dropped when the variable is null or
 * undefined, and repeated once per item when it is a list (`?tag=$tags` → `?tag=a&tag=b`). Anywhere else a
 * placeholder must have a scalar value.
 */

const PLACEHOLDER = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
const WHOLE_PLACEHOLDER = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

/** A URL placeholder without a usable value; the message says which. */
export class UrlTemplateError extends Error {
  override readonly name = 'UrlTemplateError';
}

/** Names of the `$placeholders` in a URL template, in order of first use. */
export function urlTemplateVariables(url: string): string[] {
  return [...new Set([...url.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

export function renderUrlTemplate(url: string, lookup: (name: string) => unknown): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const fragment = hashAt >= 0 ? url.slice(hashAt) : '';
  const queryAt = beforeHash.indexOf('?');
  if (queryAt < 0) return fillScalars(beforeHash, lookup) + fragment;
  const base = fillScalars(beforeHash.slice(0, queryAt), lookup);
  const query = renderQuery(beforeHash.slice(queryAt + 1), lookup);
  return base + (query ? `?${query}` : '') + fragment;
}

function renderQuery(query: string, lookup: (name: string) => unknown): string {
  const parts: string[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equalsAt = pair.indexOf('=');
    const key = equalsAt >= 0 ? pair.slice(0, equalsAt) : pair;
    const rawValue = equalsAt >= 0 ? pair.slice(equalsAt + 1) : undefined;
    const whole = rawValue === undefined ? null : WHOLE_PLACEHOLDER.exec(rawValue);
    if (!whole) {
      parts.push(rawValue === undefined ? fillScalars(key, lookup) : `${fillScalars(key, lookup)}=${fillScalars(rawValue, lookup)}`);
      continue;
    }
    const value = lookup(whole[1]!);
    if (value === undefined || value === null) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) parts.push(`${fillScalars(key, lookup)}=${encodeScalar(whole[1]!, item)}`);
  }
  return parts.join('&');
}

function fillScalars(text: string, lookup: (name: string) => unknown): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    const value = lookup(name);
    if (value === undefined || value === null) throw new UrlTemplateError(`the url placeholder $${name} has no value`);
    return encodeScalar(name, value);
  });
}

function encodeScalar(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return encodeURIComponent(String(value));
  throw new UrlTemplateError(`the url placeholder $${name} needs a scalar value, not ${Array.isArray(value) ? 'a list' : typeof value}`);
}
