import { unionNames } from '../../api/names.js';
import { ClientInputError } from '../../errors/codes.js';
import type { SchemaModel } from '../../sdl/model.js';

type Input = Record<string, unknown>;

/**
 * What a Ref to `target` names: for a union, the one member Ref it holds (`{ humanRef: { id } }` →
 * `Human`, `{ id }`); for any other type, the Ref itself.
 */
export function memberRefOf(model: SchemaModel, target: string, ref: Input): { typeName: string; ref: Input } {
  const union = model.unions?.get(target);
  if (!union) return { typeName: target, ref };
  const given = union.members.filter((member) => ref[unionNames.memberRef(member)] !== undefined && ref[unionNames.memberRef(member)] !== null);
  const keys = union.members.map((member) => unionNames.memberRef(member)).join(', ');
  if (given.length !== 1) throw new ClientInputError(`${target}Ref: give exactly one of ${keys}; got ${given.length}`);
  const member = given[0]!;
  const memberRef = ref[unionNames.memberRef(member)];
  if (typeof memberRef !== 'object' || Array.isArray(memberRef)) throw new ClientInputError(`${target}Ref.${unionNames.memberRef(member)}: expected a ${member}Ref object`);
  return { typeName: member, ref: memberRef as Input };
}

/** The unions that have `typeName` as a member. */
export function unionsContaining(model: SchemaModel, typeName: string): string[] {
  return [...(model.unions?.values() ?? [])].filter((union) => union.members.includes(typeName)).map((union) => union.name);
}
