/**
 * Names the generated API declares, so a user type cannot take one of them. They must match what api/
 * generates (api/names.ts and api/search-filters.ts); sdl/ sits above api/ and cannot import them.
 */

/** Type names generated for each user type or interface `T`. */
export function generatedTypeNames(type: string): string[] {
  return [
    `${type}Filter`, `${type}Order`, `${type}Orderable`, `${type}AggregateResult`, `Add${type}Input`, `Update${type}Input`,
    `${type}Patch`, `${type}Ref`, `Add${type}Payload`, `Update${type}Payload`, `Delete${type}Payload`, `${type}HasFilter`,
  ];
}

/** Filter inputs generated for an enum with `@search(by: [hash])` / `[exact]`. */
export function generatedEnumNames(enumName: string): string[] {
  return [`${enumName}_hash`, `${enumName}_exact`];
}

/** Operation names generated for each user type `T`: custom queries and mutations must not reuse them. */
export function generatedOperationNames(type: string): { queries: string[]; mutations: string[] } {
  return { queries: [`get${type}`, `query${type}`, `aggregate${type}`], mutations: [`add${type}`, `update${type}`, `delete${type}`] };
}

const SHARED_FILTER_PARTS = ['StringHashFilter', 'StringExactFilter', 'StringTermFilter', 'StringFullTextFilter', 'StringRegExpFilter',
  'IntFilter', 'Int64Filter', 'FloatFilter', 'DateTimeFilter'];
const SHARED_RANGES = ['StringRange', 'IntRange', 'Int64Range', 'FloatRange', 'DateTimeRange'];

/**
 * Shared inputs of the generated API, whatever the user types are: the scalar filters (also joined with
 * `_` when a field has several indexes, e.g. `StringFullTextFilter_StringTermFilter`) and their ranges.
 */
export function isSharedGeneratedName(name: string): boolean {
  if (SHARED_RANGES.includes(name)) return true;
  const parts = name.split('_');
  return parts.every((part) => SHARED_FILTER_PARTS.includes(part));
}
