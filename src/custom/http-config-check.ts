import type { CustomHttpConfig, FieldModel, SchemaError, SchemaModel } from '../sdl/model.js';
import { BodyTemplateError, bodyTemplateVariables, parseBodyTemplate } from './body-template.js';
import { secretEnvVariable } from './secret-names.js';
import { urlTemplateVariables } from './url-template.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface CustomHttpCheckOptions {
  /** Names of the configured secrets; when given, every `secretHeaders` entry must name one of them. */
  secretNames?: ReadonlySet<string>;
}

/**
 * Problems of the `@custom(http:)` fields of a schema that can be found before any call: the method, the
 * body template's syntax, BATCH without a body, a url that is not an absolute http(s)
 * URL, and placeholders that name neither an argument nor (on a type) a field of the parent.
 */
export function customHttpProblems(model: SchemaModel, options: CustomHttpCheckOptions = {}): SchemaError[] {
  const problems: SchemaError[] = [];
  const check = (typeName: string, field: FieldModel, parentFields: ReadonlySet<string>) => {
    if (!field.custom) return;
    const report = (message: string) => problems.push({ message: `${typeName}.${field.name} @custom(http:): ${message}`, locations: [field.loc] });
    for (const message of configProblems(field.custom, new Set(field.args.map((arg) => arg.name)), parentFields, options)) report(message);
  };
  for (const type of model.types.values()) {
    if (type.kind !== 'type') continue;
    const parentFields = new Set(type.fields.filter((f) => !f.custom && !f.lambda).map((f) => f.name));
    for (const field of type.fields) check(type.name, field, parentFields);
  }
  for (const field of model.customQueries) check('Query', field, new Set());
  for (const field of model.customMutations) check('Mutation', field, new Set());
  return problems;
}

function configProblems(
  config: CustomHttpConfig,
  args: ReadonlySet<string>,
  parentFields: ReadonlySet<string>,
  options: CustomHttpCheckOptions,
): string[] {
  const problems: string[] = [];
  const method = config.method.toUpperCase();
  if (!METHODS.has(method)) problems.push(`the method ${config.method} is not one of ${[...METHODS].join(', ')}`);

  const probeUrl = config.url.replace(/\$[A-Za-z_][A-Za-z0-9_]*/g, 'x');
  let parsed: URL | undefined;
  try {
    parsed = new URL(probeUrl);
  } catch {
    problems.push(`the url ${JSON.stringify(config.url)} is not an absolute URL`);
  }
  if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    problems.push(`the url must use http or https, not ${parsed.protocol.slice(0, -1)}`);
  }
  const urlScope = config.mode === 'BATCH' ? 'an argument (in mode BATCH the url sees only arguments)' : 'an argument or a field of the type';
  for (const name of urlTemplateVariables(config.url)) {
    const known = args.has(name) || (config.mode !== 'BATCH' && parentFields.has(name));
    if (!known) problems.push(`the url placeholder $${name} is not ${urlScope}`);
  }

  if (config.body !== undefined) {
    try {
      for (const name of bodyTemplateVariables(parseBodyTemplate(config.body))) {
        if (!args.has(name) && !parentFields.has(name)) problems.push(`the body placeholder $${name} is not an argument or a field of the type`);
      }
    } catch (error) {
      if (!(error instanceof BodyTemplateError)) throw error;
      problems.push(error.message);
    }
  } else if (config.mode === 'BATCH') {
    problems.push('mode BATCH needs a body template (one entry per parent is sent as a JSON array)');
  }

  if (options.secretNames) {
    for (const entry of config.secretHeaders) {
      const colonAt = entry.indexOf(':');
      const secret = (colonAt < 0 ? entry : entry.slice(colonAt + 1)).trim();
      if (!options.secretNames.has(secret)) problems.push(`the secret header ${entry} needs a configured secret named ${secret}: set the environment variable ${secretEnvVariable(secret)} for the service`);
    }
  }
  return problems;
}
