import { unionNames } from '../api/names.js';
import type { SchemaModel } from '../sdl/model.js';
import { QueryArgumentError } from './errors.js';

type FilterInput = Record<string, unknown>;

/** The member is left out of the result (`memberTypes` does not list it). */
export const EXCLUDED = Symbol('excluded member');

/**
 * The filter a relation field's `filter` argument sets for the related objects of one concrete type.
 * For a relation to a type or interface it is the argument itself. For a union it is read as Dgraph's
 * `UFilter`: `memberTypes` picks the members to return (all when absent), and `<member>Filter` (such as
 * `humanFilter`) filters that member's objects.
 */
export function targetFilterOf(model: SchemaModel, target: string, concrete: string, filter: FilterInput | null | undefined): FilterInput | null | undefined | typeof EXCLUDED {
  const union = model.unions?.get(target);
  if (!union || !filter) return filter;
  const keys = new Map(union.members.map((member) => [unionNames.memberFilter(member), member]));
  for (const key of Object.keys(filter)) {
    if (key !== 'memberTypes' && !keys.has(key)) {
      throw new QueryArgumentError(`${target}Filter has no key "${key}" (keys: memberTypes, ${[...keys.keys()].join(', ')})`);
    }
  }
  const memberTypes = filter.memberTypes;
  if (memberTypes !== undefined && memberTypes !== null) {
    const listed = Array.isArray(memberTypes) ? memberTypes : [memberTypes];
    for (const name of listed) {
      if (typeof name !== 'string' || !union.members.includes(name)) {
        throw new QueryArgumentError(`${target}Filter.memberTypes: ${JSON.stringify(name)} is not a member of ${target} (members: ${union.members.join(', ')})`);
      }
    }
    if (!listed.includes(concrete)) return EXCLUDED;
  }
  return filter[unionNames.memberFilter(concrete)] as FilterInput | null | undefined;
}
