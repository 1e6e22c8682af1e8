import { print, type DirectiveNode } from 'graphql';
import { describeValue, directiveArguments, stringValueOf, type Describe } from './directive-values.js';
import type { ErrorSink } from './errors.js';
import type { CollectedDirectives } from './field-directives.js';
import { checkNoArguments } from './field-directives.js';
import type { FederationMarks } from './model.js';

/** `@override(from:, label:)`: `label` (progressive override) came with federation v2.7. */
const OVERRIDE_LABEL_SINCE = 7;

/**
 * The Federation 2 marks of a type or field (`@shareable`, `@inaccessible`, `@tag`, `@override`,
 * `@interfaceObject`, composed directives), or undefined when it carries none.
 */
export function federationMarksOf(
  collected: CollectedDirectives<string>,
  minor: number | undefined,
  errors: ErrorSink,
  describe: Describe,
): FederationMarks | undefined {
  const { byName, repeated, composed } = collected;
  const flag = (name: string): boolean => {
    const directive = byName.get(name);
    if (directive) checkNoArguments(directive, errors, describe);
    return directive !== undefined;
  };
  const marks: FederationMarks = {
    shareable: flag('shareable'),
    inaccessible: flag('inaccessible'),
    tags: repeated.filter((item) => item.name === 'tag').flatMap((item) => tagNameOf(item.node, errors, describe) ?? []),
    composed: composed.map((directive) => print(directive)),
  };
  if (flag('interfaceObject')) marks.interfaceObject = true;
  const override = byName.get('override');
  if (override) {
    const value = overrideOf(override, minor ?? 0, errors, describe);
    if (value) marks.override = value;
  }
  const empty = !marks.shareable && !marks.inaccessible && marks.tags.length === 0 && marks.composed.length === 0
    && !marks.interfaceObject && !marks.override;
  return empty ? undefined : marks;
}

function tagNameOf(directive: DirectiveNode, errors: ErrorSink, describe: Describe): string | undefined {
  const argument = directiveArguments(directive, { allowed: ['name'], required: ['name'] }, errors, describe).get('name');
  if (!argument) return undefined;
  const name = stringValueOf(argument.value);
  if (name === undefined || name === '') {
    errors.at(describe(`@${directive.name.value}(name:) must be a non-empty string, found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  return name;
}

function overrideOf(directive: DirectiveNode, minor: number, errors: ErrorSink, describe: Describe): FederationMarks['override'] {
  const at = `@${directive.name.value}`;
  const allowed = minor >= OVERRIDE_LABEL_SINCE ? ['from', 'label'] : ['from'];
  const args = directiveArguments(directive, { allowed: ['from', 'label'], required: ['from'] }, errors, describe);
  const labelNode = args.get('label');
  if (labelNode && !allowed.includes('label')) {
    errors.at(describe(`${at}(label:) needs federation v2.${OVERRIDE_LABEL_SINCE} or later (linked: v2.${minor})`), labelNode);
  }
  const fromNode = args.get('from');
  if (!fromNode) return undefined;
  const from = stringValueOf(fromNode.value);
  if (from === undefined || from === '') {
    errors.at(describe(`${at}(from:) must name the subgraph the field moves from, found ${describeValue(fromNode.value)}`), fromNode.value);
    return undefined;
  }
  if (!labelNode) return { from };
  const label = stringValueOf(labelNode.value);
  if (label === undefined || !/^(percent\((\d{1,2}(\.\d+)?|100)\)|[A-Za-z][A-Za-z0-9_\-:.]*)$/.test(label)) {
    errors.at(describe(`${at}(label:) must be "percent(N)" with N from 0 to 100, or a name, found ${describeValue(labelNode.value)}`), labelNode.value);
    return undefined;
  }
  return { from, label };
}
