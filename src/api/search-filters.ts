import type { FieldModel, SearchIndex } from '../sdl/model.js';

/**
 * The filter input a searchable field takes, chosen by its `@search` indexes, as Dgraph names them
 * (`StringHashFilter`, `IntFilter`, ...). Several indexes on one field combine into one input whose
 * name joins the parts in index-name order (`StringHashFilter_StringRegExpFilter`, `StringFullTextFilter_StringTermFilter`, `StringNgramFilter_StringRegExpFilter`),
 * holding the operators of each.
 */

interface FilterPart {
  name: string;
  /** `op: Type` lines. */
  operators: string[];
  /** Inputs the operators refer to (ranges), by name. */
  needs: Record<string, string>;
}

/** Dgraph's operator order: `eq, in, le, lt, ge, gt, between`. */
const ordered = (type: string, between: string): string[] =>
  [`eq: ${type}`, `in: [${type}]`, ...['le', 'lt', 'ge', 'gt'].map((op) => `${op}: ${type}`), `between: ${between}`];

function range(type: string): Record<string, string> {
  return { [`${type}Range`]: `input ${type}Range {\n  min: ${type}!\n  max: ${type}!\n}` };
}

function orderedPart(name: string, type: string): FilterPart {
  return { name, operators: ordered(type, `${type}Range`), needs: range(type) };
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
    case 'ngram':
      return { name: 'StringNgramFilter', operators: ['ngram: String'], needs: {} };
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
      // Dgraph derives this from StringExactFilter with the enum put in place of String, `between` included.
      return { name: `${enumName}_exact`, operators: ordered(enumName, enumName), needs: {} };
    case 'trigram':
    case 'regexp':
    case 'ngram':
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

/**
 * The indexes a field's filter offers, in the order Dgraph names their combined input: sorted by index
 * name. An `@id` field is hash-indexed too, unless `exact` (which also answers `eq`/`in`) is given.
 */
function filterIndexes(field: FieldModel): SearchIndex[] {
  const indexes = [...field.search];
  if (field.isUniqueId && !indexes.includes('hash') && !indexes.includes('exact')) indexes.push(defaultIdIndex(field));
  return indexes.sort();
}

/** Without `@search`, an `@id` field gets `hash` on a String or enum, the scalar's default index otherwise. */
function defaultIdIndex(field: FieldModel): SearchIndex {
  if (field.of.kind !== 'scalar') return 'hash';
  switch (field.of.scalar) {
    case 'Int': return 'int';
    case 'Int64': return 'int64';
    case 'Float': return 'float';
    case 'DateTime': return 'year';
    case 'Boolean': return 'bool';
    default: return 'hash';
  }
}

/** The filter entry for a field, or undefined when the field is not searchable. */
export function filterFor(field: FieldModel): FieldFilter | undefined {
  const indexes = filterIndexes(field);
  if (indexes.length === 0) return undefined;
  if (field.of.kind === 'scalar' && field.of.scalar === 'Boolean') return { typeName: 'Boolean', definitions: new Map() };

  const parts = new Map<string, FilterPart>();
  for (const index of indexes) {
    const part = scalarPart(field, index);
    if (part) parts.set(part.name, part);
  }
  if (parts.size === 0) return undefined;

  const combined = [...parts.values()];
  const definitions = new Map<string, string>();
  for (const part of combined) for (const [name, sdl] of Object.entries(part.needs)) definitions.set(name, sdl);
  const typeName = combined.map((part) => part.name).join('_');
  const operators = [...new Set(combined.flatMap((part) => part.operators))];
  definitions.set(typeName, `input ${typeName} {\n${operators.map((line) => `  ${line}`).join('\n')}\n}`);
  return { typeName, definitions };
}
