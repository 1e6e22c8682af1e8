import { Kind, print, type ConstDirectiveNode, type DirectiveDefinitionNode, type DocumentNode, type ValueNode } from 'graphql';
import { describeValue, directiveArguments, listItemsOf, stringValueOf, type Describe } from './directive-values.js';
import { isBuiltInDirective } from './directive-names.js';
import type { ErrorSink } from './errors.js';
import { FEDERATION_1, type ComposedDirective, type FederationSettings } from './model.js';

/**
 * Federation 2 is opted into the way the spec says: `extend schema @link(url:
 * "https://specs.apollo.dev/federation/v2.x", import: [...])`. This module reads the schema extensions
 * and directive definitions of a document: the linked federation version, which local name stands for
 * which federation directive (imports, `as` renames, and the `federation__` namespace), and the custom
 * directives composed by `@composeDirective`. Without a federation `@link` the schema is Federation 1.
 */

const FEDERATION_SPEC = /^https:\/\/specs\.apollo\.dev\/federation\/v2\.(\d+)$/;
const LINK_SPEC = /^https:\/\/specs\.apollo\.dev\/link\/v1\.0$/;
/** Minor versions of federation v2 both `@apollo/composition` and `@theguild/federation-composition` read. */
export const FEDERATION_2_MINORS = { lowest: 0, highest: 9 } as const;

/** Federation 2 directives Autograph supports, with the spec version that introduced each. */
export const FEDERATION_2_DIRECTIVES: Readonly<Record<string, number>> = Object.freeze({
  key: 0, requires: 0, provides: 0, external: 0, extends: 0, shareable: 0, inaccessible: 0, override: 0, tag: 0,
  composeDirective: 1, interfaceObject: 3,
});
/** Federation 2 directives that exist in the spec but Autograph does not implement. */
const UNSUPPORTED_FEDERATION_DIRECTIVES = ['authenticated', 'requiresScopes', 'policy', 'context', 'fromContext', 'cost', 'listSize'];
/** Directives Autograph itself defines: an import may not be renamed onto them. */
const AUTOGRAPH_DIRECTIVES = ['id', 'search', 'hasInverse', 'lambda', 'custom', 'auth', 'deprecated', 'withSubscription'];
/** Types of the federation spec that may be imported (they are never written in an Autograph schema). */
const IMPORTABLE_TYPES = ['FieldSet'];

/** How a directive written in the schema reads: a standard name, or why it cannot be used. */
export type DirectiveReading = { name: string; composed?: boolean; ignored?: boolean } | { problem: string };

export interface FederationLink {
  settings: FederationSettings;
  /** Federation 2: the minor version (`2` for v2.2); undefined for Federation 1. */
  minor?: number;
  /** The standard name of a directive as written in the schema. */
  read(localName: string): DirectiveReading;
}

const FEDERATION_1_LINK: FederationLink = { settings: FEDERATION_1, read: (name) => ({ name }) };

interface LinkDirective {
  url: string;
  node: ConstDirectiveNode;
  /** Local name (without `@`) → the name in the linked spec. */
  imports: Map<string, string>;
  namespace: string;
}

export function readFederationLink(document: DocumentNode, errors: ErrorSink): FederationLink {
  const links: LinkDirective[] = [];
  const composeNodes: ConstDirectiveNode[] = [];
  const definitions = new Map<string, DirectiveDefinitionNode>();
  const schemaDescribe: Describe = (message) => `extend schema: ${message}`;

  for (const definition of document.definitions) {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) definitions.set(definition.name.value, definition);
    if (definition.kind !== Kind.SCHEMA_EXTENSION) continue;
    if ((definition.operationTypes ?? []).length > 0) {
      errors.at(schemaDescribe('root operation types cannot be set; the root types are always Query and Mutation'), definition.operationTypes![0]!);
    }
    for (const directive of definition.directives ?? []) {
      const name = directive.name.value;
      if (name === 'link') {
        const link = linkOf(directive, errors, schemaDescribe);
        if (link) links.push(link);
      } else {
        composeNodes.push(directive);
      }
    }
  }

  const federationLinks = links.filter((link) => FEDERATION_SPEC.test(link.url));
  if (federationLinks.length === 0) {
    for (const link of links) {
      errors.at(schemaDescribe(`@link(url: ${JSON.stringify(link.url)}) is not a federation spec; Federation 2 is opted into with @link(url: "https://specs.apollo.dev/federation/v2.${FEDERATION_2_MINORS.highest}", import: [...])`), link.node);
    }
    for (const node of composeNodes) errors.at(schemaDescribe(`@${node.name.value} needs Federation 2: link https://specs.apollo.dev/federation/v2.x first`), node);
    return definitions.size === 0 ? FEDERATION_1_LINK : ignoringDefinedDirectives(definitions);
  }
  for (const extra of federationLinks.slice(1)) errors.at(schemaDescribe('the federation spec is linked more than once'), extra.node);
  const federation = federationLinks[0]!;
  const minor = Number(FEDERATION_SPEC.exec(federation.url)![1]);
  if (minor < FEDERATION_2_MINORS.lowest || minor > FEDERATION_2_MINORS.highest) {
    errors.at(schemaDescribe(`@link(url: ${JSON.stringify(federation.url)}): federation v2.${minor} is not supported (supported: v2.${FEDERATION_2_MINORS.lowest} to v2.${FEDERATION_2_MINORS.highest})`), federation.node);
  }
  checkFederationImports(federation, minor, errors, schemaDescribe);

  const otherLinks = links.filter((link) => link !== federation && !LINK_SPEC.test(link.url));
  const composedDirectives = composedDirectivesOf(composeNodes, { federation, minor, otherLinks, definitions }, errors, schemaDescribe);

  const settings: FederationSettings = { version: 2, specUrl: federation.url, composedDirectives };
  const composedNames = new Set(composedDirectives.map((composed) => composed.name));
  return { settings, minor, read: (localName) => readDirectiveName(localName, federation, composedNames) };
}

/**
 * The custom directives composed by `@composeDirective(name: "@x")`: each must be imported by a `@link` of
 * its own and defined in the schema. A directive definition that no `@composeDirective` names is refused.
 */
function composedDirectivesOf(
  composeNodes: readonly ConstDirectiveNode[],
  context: { federation: LinkDirective; minor: number; otherLinks: readonly LinkDirective[]; definitions: ReadonlyMap<string, DirectiveDefinitionNode> },
  errors: ErrorSink,
  describe: Describe,
): ComposedDirective[] {
  const { federation, minor, otherLinks, definitions } = context;
  const composeName = localNameOf(federation, 'composeDirective');
  const composedDirectives: ComposedDirective[] = [];
  const namedByCompose = new Set<string>();
  for (const node of composeNodes) {
    if (node.name.value !== composeName) {
      errors.at(describe(`@${node.name.value} is not allowed on the schema (allowed: @link, @${composeName})`), node);
      continue;
    }
    if (minor < FEDERATION_2_DIRECTIVES.composeDirective!) {
      errors.at(describe(`@${node.name.value} needs federation v2.${FEDERATION_2_DIRECTIVES.composeDirective} or later (linked: v2.${minor})`), node);
      continue;
    }
    const composed = composedDirectiveOf(node, otherLinks, definitions, errors, describe);
    if (composed) composedDirectives.push(composed);
    namedByCompose.add(composedNameOf(node));
  }
  for (const [name, definition] of definitions) {
    if (!namedByCompose.has(name)) {
      errors.at(`Directive @${name}: a directive definition is allowed only for a directive composed with @${composeName}(name: "@${name}")`, definition);
    }
  }
  return composedDirectives;
}

/** The directive a `@composeDirective(name: "@x")` names (`x`), or '' when it names none. */
function composedNameOf(node: ConstDirectiveNode): string {
  const value = node.arguments?.find((argument) => argument.name.value === 'name')?.value;
  const written = value && stringValueOf(value);
  return written?.startsWith('@') ? written.slice(1) : '';
}

function linkOf(directive: ConstDirectiveNode, errors: ErrorSink, describe: Describe): LinkDirective | undefined {
  const args = directiveArguments(directive, { allowed: ['url', 'import', 'as'], required: ['url'] }, errors, describe);
  const urlNode = args.get('url');
  const url = urlNode && stringValueOf(urlNode.value);
  if (!urlNode) return undefined;
  if (url === undefined) {
    errors.at(describe(`@link(url:) must be a string, found ${describeValue(urlNode.value)}`), urlNode.value);
    return undefined;
  }
  let namespace = /\/([^/]+)\/v\d+\.\d+$/.exec(url)?.[1] ?? '';
  const asNode = args.get('as');
  if (asNode) {
    const as = stringValueOf(asNode.value);
    if (as === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(as)) errors.at(describe(`@link(as:) must be a name, found ${describeValue(asNode.value)}`), asNode.value);
    else namespace = as;
  }
  const imports = new Map<string, string>();
  const importNode = args.get('import');
  for (const item of importNode ? listItemsOf(importNode.value) : []) {
    const entry = importEntryOf(item, errors, describe);
    if (!entry) continue;
    if (imports.has(entry.local)) errors.at(describe(`@link(import:) imports @${entry.local} more than once`), item);
    else imports.set(entry.local, entry.name);
  }
  return { url, node: directive, imports, namespace };
}

/** `"@key"`, or `{ name: "@key", as: "@primaryKey" }`; types (`"FieldSet"`) are accepted and dropped. */
function importEntryOf(item: ValueNode, errors: ErrorSink, describe: Describe): { name: string; local: string } | undefined {
  let name: string | undefined;
  let as: string | undefined;
  if (item.kind === Kind.STRING) {
    name = item.value;
  } else if (item.kind === Kind.OBJECT) {
    for (const field of item.fields) {
      const value = stringValueOf(field.value);
      if (field.name.value === 'name') name = value;
      else if (field.name.value === 'as') as = value;
      else errors.at(describe(`@link(import:) entries have "name" and "as" only, found "${field.name.value}"`), field);
    }
  }
  if (name === undefined) {
    errors.at(describe(`@link(import:) entries are "@directive" or { name: "@directive", as: "@local" }, found ${describeValue(item)}`), item);
    return undefined;
  }
  if (!name.startsWith('@')) {
    if (!IMPORTABLE_TYPES.includes(name)) errors.at(describe(`@link(import:) imports ${JSON.stringify(name)}, which is not an importable type (known: ${IMPORTABLE_TYPES.join(', ')})`), item);
    return undefined;
  }
  if (as !== undefined && !as.startsWith('@')) {
    errors.at(describe(`@link(import:) renames the directive ${name} to ${JSON.stringify(as)}; a directive's new name starts with "@"`), item);
    return undefined;
  }
  const local = (as ?? name).slice(1);
  if (as !== undefined && AUTOGRAPH_DIRECTIVES.includes(local)) {
    errors.at(describe(`@link(import:) renames ${name} to ${as}, a directive Autograph defines`), item);
    return undefined;
  }
  return { name: name.slice(1), local };
}

function checkFederationImports(link: LinkDirective, minor: number, errors: ErrorSink, describe: Describe): void {
  for (const name of link.imports.values()) {
    const since = FEDERATION_2_DIRECTIVES[name];
    if (UNSUPPORTED_FEDERATION_DIRECTIVES.includes(name)) {
      errors.at(describe(`@link(import:) imports @${name}, which Autograph does not support`), link.node);
    } else if (since === undefined) {
      errors.at(describe(`@link(import:) imports @${name}, which is not a federation directive`), link.node);
    } else if (minor < since) {
      errors.at(describe(`@link(import:) imports @${name}, which needs federation v2.${since} or later (linked: v2.${minor})`), link.node);
    }
  }
}

function localNameOf(link: LinkDirective, standardName: string): string {
  for (const [local, name] of link.imports) if (name === standardName) return local;
  return `${link.namespace}__${standardName}`;
}

/** Whether `name` is a directive the schema defines for itself, whose uses are ignored. */
export function isIgnoredDirective(link: FederationLink, name: string): boolean {
  const reading = link.read(name);
  return 'name' in reading && reading.ignored === true;
}

/**
 * Federation 1 with directive definitions: as Dgraph does, a directive the schema defines itself means
 * nothing to the service, so its definition and every use of it are ignored. A definition of a directive
 * Autograph knows (`@search`, pasted from a generated schema) changes nothing: the built-in meaning holds.
 */
function ignoringDefinedDirectives(definitions: ReadonlyMap<string, DirectiveDefinitionNode>): FederationLink {
  return {
    settings: FEDERATION_1,
    read: (name) => (definitions.has(name) && !isBuiltInDirective(name) ? { name, ignored: true } : { name }),
  };
}

function readDirectiveName(localName: string, federation: LinkDirective, composed: ReadonlySet<string>): DirectiveReading {
  const imported = federation.imports.get(localName);
  if (imported !== undefined) return { name: imported };
  const prefix = `${federation.namespace}__`;
  if (localName.startsWith(prefix)) {
    const name = localName.slice(prefix.length);
    if (FEDERATION_2_DIRECTIVES[name] !== undefined) return { name };
    return { problem: `@${localName} is not a federation directive Autograph supports` };
  }
  if (composed.has(localName)) return { name: localName, composed: true };
  if (FEDERATION_2_DIRECTIVES[localName] !== undefined) {
    const renamed = [...federation.imports].find(([, name]) => name === localName);
    return {
      problem: renamed
        ? `@${localName} is imported as @${renamed[0]}; write @${renamed[0]}`
        : `@${localName} is not imported by @link; add "@${localName}" to its import list or write @${prefix}${localName}`,
    };
  }
  return { name: localName };
}

function composedDirectiveOf(
  node: ConstDirectiveNode,
  links: readonly LinkDirective[],
  definitions: ReadonlyMap<string, DirectiveDefinitionNode>,
  errors: ErrorSink,
  describe: Describe,
): ComposedDirective | undefined {
  const argument = directiveArguments(node, { allowed: ['name'], required: ['name'] }, errors, describe).get('name');
  if (!argument) return undefined;
  const written = stringValueOf(argument.value);
  if (written === undefined || !written.startsWith('@')) {
    errors.at(describe(`@${node.name.value}(name:) must be a directive name like "@custom", found ${describeValue(argument.value)}`), argument.value);
    return undefined;
  }
  const name = written.slice(1);
  const link = links.find((candidate) => candidate.imports.has(name));
  if (!link) {
    errors.at(describe(`@${node.name.value}(name: "${written}"): ${written} must be imported by a @link to its own spec`), argument.value);
    return undefined;
  }
  const definition = definitions.get(name);
  if (!definition) {
    errors.at(describe(`@${node.name.value}(name: "${written}"): the schema needs its definition (directive ${written} on ...)`), argument.value);
    return undefined;
  }
  const locations = definition.locations.map((location) => location.value);
  const places = locations.filter((location) => !COMPOSABLE_LOCATIONS.includes(location));
  if (places.length > 0) {
    errors.at(`Directive ${written}: a composed directive may apply to ${COMPOSABLE_LOCATIONS.join(', ')} only, not ${places.join(', ')}`, definition);
    return undefined;
  }
  return { name, linkUrl: link.url, definition: print(definition), locations };
}

/** Where Autograph carries a composed directive from the schema to the generated API. */
export const COMPOSABLE_LOCATIONS = ['OBJECT', 'INTERFACE', 'FIELD_DEFINITION'];

/** Whether a composed directive's definition lets it stand at `location`. */
export function composedDirectiveAllows(settings: FederationSettings, name: string, location: 'OBJECT' | 'INTERFACE' | 'FIELD_DEFINITION'): boolean {
  const composed = settings.composedDirectives.find((candidate) => candidate.name === name);
  return composed !== undefined && composed.locations.includes(location);
}
