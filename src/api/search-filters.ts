import type { FieldModel, SearchIndex } from '../sdl/model.js';

/**
 * The filter input a searchable field takes, chosen by its `@search` indexes, as Dgraph names them
 * (`StringHashFilter`, `IntFilter`, ...). Several indexes on one field combine into one input whose
 * name joins the parts (`StringFullTextFilter_StringTermFilter`), holding the operators of each.
 */

interface FilterPart {
  name: string;
  /** `op: Type` lines. */
  operators: string[];
  /** Inputs the operators refer to (ranges), by name. */
  needs: Record<string, string>;
}

const comparison = (type: string): string[] => ['eq', 'le', 'lt', 'ge', 'gt'].map((op) => `${op}: ${type}`);

function range(type: string): Record<string, string> {
  return { [`${type}Range`]: `input ${type}Range {\n  min: ${type}!\n  max: ${type}!\n}` };
}

function orderedPart(name: string, type: string): FilterPart {
  return { name, operators: [...comparison(type), `in: [${type}]`, `between: ${type}Range`], needs: range(type) };
}

function stringPart(index: SearchIndex): FilterPart | undefined {
  switch (index) {
    case 'hash':
      return { name: 'StringHashFilter', operators: ['eq: String', 'in: [String]'], needs: {} };
    case 'exact':
      return orderedPart('StringExactFilter', 'String');
    case 'term':
      return { name: 'StringTermFilter', operators: ['allofterms: String', 'anyofterms: String'], needs: {} };
    case 'fulltext':
      return { name: 'StringFullTextFilter', operators: ['alloftext: String', 'anyoftext: String'], needs: {} };
    case 'trigram':
    case 'regexp':
      return { name: 'StringRegExpFilter', operators: ['regexp: String'], needs: {} };
    default:
      return undefined;
  }
}

function enumPart(enumName: string, index: SearchIndex): FilterPart | undefined {
  switch (index) {
    case 'hash':
      return { name: `${enumName}_hash`, operators: [`eq: ${enumName}`, `in: [${enumName}]`], needs: {} };
    case 'exact':
      return { name: `${enumName}_exact`, operators: [...comparison(enumName), `in: [${enumName}]`], needs: {} };
    case 'trigram':
    case 'regexp':
      return stringPart(index);
    default:
      return undefined;
  }
}

function scalarPart(field: FieldModel, index: SearchIndex): FilterPart | undefined {
  if (field.of.kind === 'enum') return enumPart(field.of.enumName, index);
  if (field.of.kind !== 'scalar') return undefined;
  switch (field.of.scalar) {
    case 'String':
      return stringPart(index);
    case 'Int':
      return orderedPart('IntFilter', 'Int');
    case 'Int64':
      return orderedPart('Int64Filter', 'Int64');
    case 'Float':
      return orderedPart('FloatFilter', 'Float');
    case 'DateTime':
      return orderedPart('DateTimeFilter', 'DateTime');
    default:
      return undefined;
  }
}

export interface FieldFilter {
  /** The GraphQL type of the field's entry in `TFilter`. */
  typeName: string;
  /** Input definitions this entry needs, by name (shared ones are emitted once). */
  definitions: Map<string, string>;
}

/** The filter entry for a field, or undefined when the field is not searchable. */
export function filterFor(field: FieldModel): FieldFilter | undefined {
  // An `@id` field is hash-indexed even without `@search` (as in Dgraph, and as query/filterShapeOf accepts).
  const indexes: SearchIndex[] = field.isUniqueId && !field.search.includes('hash') ? ['hash', ...field.search] : field.search;
  if (indexes.length === 0) return undefined;
  if (field.of.kind === 'scalar' && field.of.scalar === 'Boolean') return { typeName: 'Boolean', definitions: new Map() };

  const parts = new Map<string, FilterPart>();
  for (const index of indexes) {
    const part = scalarPart(field, index);
    if (part) parts.set(part.name, part);
  }
  if (parts.size === 0) return undefined;

  const sorted = [...parts.values()].sort((a, b) => a.name.localeCompare(b.name));
  const definitions = new Map<string, string>();
  for (const part of sorted) for (const [name, sdl] of Object.entries(part.needs)) definitions.set(name, sdl);
  const typeName = sorted.map((part) => part.name).join('_');
  const operators = [...new Set(sorted.flatMap((part) => part.operators))];
  definitions.set(typeName, `input ${typeName} {\n${operators.map((line) => `  ${line}`).join('\n')}\n}`);
  return { typeName, definitions };
}
