import { describeValue, directiveArguments, stringValueOf, type Describe } from './directive-values.js';
import { typeMessage, type ErrorSink } from './errors.js';
import { storedNameOf } from './storage-names.js';
import type { TypeDraft } from './types.js';

/**
 * `@secret(field: "password", pred: "...")` on a type or interface: a password the Add and Update inputs
 * take and `checkTPassword` compares, never part of the type itself, so no query, filter or order can
 * reach it. Only its bcrypt hash is stored, under `pred` (made safe by `storedNameOf`) or the field name.
 * A type implementing an interface with a secret has the interface's secret, unless it declares its own.
 */
export function readSecrets(drafts: ReadonlyMap<string, TypeDraft>, errors: ErrorSink): void {
  for (const draft of drafts.values()) readSecret(draft, errors);
  for (const draft of drafts.values()) {
    if (draft.secret || draft.kind !== 'type') continue;
    const inherited = draft.implements.map((name) => drafts.get(name)?.secret).find((secret) => secret !== undefined);
    if (inherited) draft.secret = inherited;
  }
}

function readSecret(draft: TypeDraft, errors: ErrorSink): void {
  const directive = draft.directives.secret;
  if (!directive) return;
  const describe: Describe = (message) => typeMessage(draft.name, message);
  const args = directiveArguments(directive, { allowed: ['field', 'pred'], required: ['field'] }, errors, describe);
  const fieldArgument = args.get('field');
  if (!fieldArgument) return;
  const name = stringValueOf(fieldArgument.value);
  if (name === undefined || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
    errors.at(describe(`@secret(field:) must name the password field, like "password"; found ${describeValue(fieldArgument.value)}`), fieldArgument.value);
    return;
  }
  if (draft.fieldsByName.has(name)) {
    errors.at(describe(`has a @secret directive and a field of the same name ${name}`), directive);
    return;
  }
  let stored = name;
  const predArgument = args.get('pred');
  if (predArgument) {
    const pred = stringValueOf(predArgument.value);
    if (pred === undefined || pred.trim() === '' || pred.startsWith('_') || pred.startsWith('~')) {
      errors.at(describe(`@secret(pred:) must be a stored name (not empty, not starting with "_" or "~"); found ${describeValue(predArgument.value)}`), predArgument.value);
      return;
    }
    stored = pred;
  }
  const storedName = storedNameOf(stored);
  const clash = draft.fields.find((field) => !field.model.isIdField && (field.model.storedName ?? field.model.name) === storedName);
  if (clash) {
    errors.at(describe(`@secret is stored under ${JSON.stringify(stored)}, as is field ${clash.model.name}; give it another pred`), directive);
    return;
  }
  draft.secret = { name, storedName };
}
