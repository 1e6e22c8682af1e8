import { Kind, type DirectiveNode, type ObjectFieldNode, type ValueNode } from 'graphql';
import { describeValue, directiveArguments, listItemsOf, nameValueOf, stringValueOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { CustomHttpConfig } from './model.js';

const HTTP_KEYS = ['url', 'method', 'body', 'forwardHeaders', 'secretHeaders', 'mode'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const MODES = ['SINGLE', 'BATCH'] as const;

/**
 * `@custom(dql:)` runs a query in Dgraph's own language against Dgraph's predicates: there is no DQL
 * engine here, so the schema is refused, saying what to use instead.
 */
export const DQL_REFUSAL = '@custom(dql:) is not supported: DQL is Dgraph\'s query language and has no equivalent in this service; '
  + 'resolve the field with @lambda (its graphql() runs queries of the generated API) or @custom(http:)';

/** `@custom(http: { url, method, body, forwardHeaders, secretHeaders, mode })` as a `CustomHttpConfig`. */
export function customHttpOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): CustomHttpConfig | undefined {
  const dql = directive.arguments?.find((argument) => argument.name.value === 'dql');
  if (dql) {
    errors.at(describe(DQL_REFUSAL), dql);
    return undefined;
  }
  const http = directiveArguments(directive, { allowed: ['http'], required: ['http'] }, errors, describe).get('http');
  if (!http) return undefined;
  if (http.value.kind !== Kind.OBJECT) {
    errors.at(describe(`@custom(http:) must be an object like { url: "...", method: GET }, found ${describeValue(http.value)}`), http.value);
    return undefined;
  }
  const say: Describe = (message) => describe(`@custom(http:) ${message}`);
  const fields = new Map<string, ObjectFieldNode>();
  let valid = true;
  for (const field of http.value.fields) {
    const key = field.name.value;
    if (!(HTTP_KEYS as readonly string[]).includes(key)) {
      errors.at(say(`has no key "${key}" (known: ${HTTP_KEYS.join(', ')})`), field);
      valid = false;
    } else if (fields.has(key)) {
      errors.at(say(`repeats the key "${key}"`), field);
      valid = false;
    } else {
      fields.set(key, field);
    }
  }

  const urlField = fields.get('url');
  const url = urlField && stringValueOf(urlField.value);
  if (!urlField) {
    errors.at(say('needs "url"'), http.value);
    valid = false;
  } else if (url === undefined || !isHttpUrl(url)) {
    errors.at(say(`"url" must be an absolute http(s) URL, found ${describeValue(urlField.value)}`), urlField.value);
    valid = false;
  }

  const method = choiceOf(fields.get('method'), METHODS, 'GET', errors, say);
  const mode = choiceOf(fields.get('mode'), MODES, 'SINGLE', errors, say);
  const bodyField = fields.get('body');
  const body = bodyField && stringValueOf(bodyField.value);
  if (bodyField && body === undefined) {
    errors.at(say(`"body" must be a string, found ${describeValue(bodyField.value)}`), bodyField.value);
    valid = false;
  }
  const forwardHeaders = headerNamesOf(fields.get('forwardHeaders'), errors, say);
  const secretHeaders = headerNamesOf(fields.get('secretHeaders'), errors, say);

  if (!valid || url === undefined || !method || !mode || !forwardHeaders || !secretHeaders) return undefined;
  return { url, method, ...(body !== undefined ? { body } : {}), forwardHeaders, secretHeaders, mode };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function choiceOf<T extends string>(
  field: ObjectFieldNode | undefined,
  choices: readonly T[],
  fallback: T,
  errors: ErrorSink,
  describe: Describe,
): T | undefined {
  if (!field) return fallback;
  const name = nameValueOf(field.value);
  const found = choices.find((choice) => choice === name);
  if (!found) {
    errors.at(describe(`"${field.name.value}" must be one of ${choices.join(', ')}, found ${describeValue(field.value)}`), field.value);
  }
  return found;
}

function headerNamesOf(field: ObjectFieldNode | undefined, errors: ErrorSink, describe: Describe): string[] | undefined {
  if (!field) return [];
  const names: string[] = [];
  for (const item of listItemsOf(field.value)) {
    const name = stringValueOf(item);
    if (name === undefined || name.trim() === '') {
      errors.at(describe(`"${field.name.value}" must list header names as strings, found ${describeValue(item)}`), item as ValueNode);
      return undefined;
    }
    names.push(name);
  }
  return names;
}
