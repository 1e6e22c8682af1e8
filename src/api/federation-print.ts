import type { FederationMarks, FederationSettings, FieldModel, KeyModel, SchemaModel, TypeModel } from '../sdl/model.js';

/** How federation directives are printed into the generated SDL and the gateway's view of it. */

/** `@key(fields: "sku package")`, `@key(fields: "id", resolvable: false)`, one per key. */
export function keyDirectives(keys: readonly KeyModel[]): string[] {
  return keys.map((key) => `@key(fields: ${JSON.stringify(key.fields)}${key.resolvable ? '' : ', resolvable: false'})`);
}

/** The type-level directives: keys, `@extends` (not for an `@interfaceObject`), then Federation 2 marks. */
export function typeDirectives(type: TypeModel): string[] {
  const directives = keyDirectives(type.keys);
  if (type.extended && !type.marks?.interfaceObject) directives.push('@extends');
  if (type.marks?.interfaceObject) directives.push('@interfaceObject');
  return [...directives, ...markDirectives(type.marks)];
}

/** A field's federation directives: `@external`, `@provides`, `@requires`, then Federation 2 marks. */
export function fieldDirectives(field: FieldModel): string[] {
  const directives: string[] = [];
  if (field.external) directives.push('@external');
  if (field.providesSelection) directives.push(`@provides(fields: ${JSON.stringify(field.providesSelection)})`);
  if (field.requiresSelection) directives.push(`@requires(fields: ${JSON.stringify(field.requiresSelection)})`);
  if (field.marks?.override) {
    const { from, label } = field.marks.override;
    directives.push(`@override(from: ${JSON.stringify(from)}${label === undefined ? '' : `, label: ${JSON.stringify(label)}`})`);
  }
  return [...directives, ...markDirectives(field.marks)];
}

function markDirectives(marks: FederationMarks | undefined): string[] {
  if (!marks) return [];
  const directives: string[] = [];
  if (marks.shareable) directives.push('@shareable');
  if (marks.inaccessible) directives.push('@inaccessible');
  for (const tag of marks.tags) directives.push(`@tag(name: ${JSON.stringify(tag)})`);
  return [...directives, ...marks.composed];
}

/** ` @inaccessible` when the part generated for a hidden type or field must be hidden too, else ''. */
export function hiddenSuffix(model: SchemaModel, hidden: boolean): string {
  return model.federation.version === 2 && hidden ? ' @inaccessible' : '';
}

/**
 * Object types the API generates (payloads, aggregate results) are value types: another subgraph that
 * generates the same one (two Autograph services knowing one entity) must be able to resolve it too.
 */
export function generatedObjectSuffix(model: SchemaModel, hidden: boolean): string {
  return model.federation.version === 2 ? ` @shareable${hidden ? ' @inaccessible' : ''}` : '';
}

/** Directives whose minimum federation 2 version (`v2.N`) is above v2.0. */
const IMPORT_SINCE: Readonly<Record<string, number>> = { composeDirective: 1, interfaceObject: 3 };
const FEDERATION_IMPORTS = [
  'key', 'requires', 'provides', 'external', 'extends', 'shareable', 'inaccessible', 'override', 'tag', 'interfaceObject', 'composeDirective',
];

/**
 * The schema extension that opens a Federation 2 subgraph's SDL: the federation `@link` importing every
 * directive the generated SDL may use, then each composed directive's spec `@link` and `@composeDirective`.
 */
export function federationSchemaExtension(settings: FederationSettings): string {
  if (settings.version !== 2 || !settings.specUrl) return '';
  const minor = Number(/v2\.(\d+)$/.exec(settings.specUrl)?.[1] ?? 0);
  const imports = FEDERATION_IMPORTS.filter((name) => minor >= (IMPORT_SINCE[name] ?? 0)).map((name) => JSON.stringify(`@${name}`));
  const lines = [`extend schema`, `  @link(url: ${JSON.stringify(settings.specUrl)}, import: [${imports.join(', ')}])`];
  const byLink = new Map<string, string[]>();
  for (const composed of settings.composedDirectives) byLink.set(composed.linkUrl, [...(byLink.get(composed.linkUrl) ?? []), composed.name]);
  for (const [url, names] of byLink) lines.push(`  @link(url: ${JSON.stringify(url)}, import: [${names.map((name) => JSON.stringify(`@${name}`)).join(', ')}])`);
  for (const composed of settings.composedDirectives) lines.push(`  @composeDirective(name: ${JSON.stringify(`@${composed.name}`)})`);
  return lines.join('\n');
}
