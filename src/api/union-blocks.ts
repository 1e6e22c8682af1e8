import type { SchemaModel, UnionModel } from '../sdl/model.js';
import { names, unionNames } from './names.js';

/** One generated SDL block and, when the gateway's view prints it differently, that variant. */
export interface UnionBlock {
  name: string;
  sdl: string;
  gatewaySdl?: string;
}

/**
 * What the API declares for `union U = A | B`, as Dgraph generates it: the union itself, `UType` (an enum
 * of the members), `UFilter` (`memberTypes` picks members, `aFilter` filters the A objects) and `URef`
 * (`@oneOf`: one member's Ref per reference). The gateway's view prints `URef` without `@oneOf`, which
 * Federation 1 composition does not know, and leaves out the filters of members owned by another service.
 */
export function unionBlocks(model: SchemaModel, union: UnionModel): UnionBlock[] {
  const U = union.name;
  const describe = union.description ? `${JSON.stringify(union.description)}\n` : '';
  const extended = (member: string): boolean => model.types.get(member)?.extended === true;
  const filterLine = (member: string) => `${unionNames.memberFilter(member)}: ${names.filter(member)}`;
  const filter = (members: string[]) => inputBlock(names.filter(U), '', [`memberTypes: [${unionNames.memberTypeEnum(U)}!]`, ...members.map(filterLine)]);
  const refLines = union.members.map((member) => `${unionNames.memberRef(member)}: ${names.ref(member)}`);
  const ownMembers = union.members.filter((member) => !extended(member));
  const blocks: UnionBlock[] = [
    { name: U, sdl: `${describe}union ${U} = ${union.members.join(' | ')}` },
    { name: unionNames.memberTypeEnum(U), sdl: `enum ${unionNames.memberTypeEnum(U)} {\n${union.members.map((member) => `  ${member}`).join('\n')}\n}` },
    { name: names.filter(U), sdl: filter(union.members), ...(ownMembers.length < union.members.length ? { gatewaySdl: filter(ownMembers) } : {}) },
    { name: names.ref(U), sdl: inputBlock(names.ref(U), ' @oneOf', refLines), gatewaySdl: inputBlock(names.ref(U), '', refLines) },
  ];
  return blocks;
}

function inputBlock(name: string, directives: string, lines: string[]): string {
  return `input ${name}${directives} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}`;
}
