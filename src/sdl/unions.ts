import type { UnionTypeDefinitionNode } from 'graphql';
import type { Declarations } from './declarations.js';
import { fieldMessage, locationOf, typeMessage, type ErrorSink } from './errors.js';
import type { NameKind } from './fields.js';
import type { UnionModel } from './model.js';
import type { TypeDraft } from './types.js';

/**
 * `union U = A | B`, as Dgraph takes it: the members are object types of this schema, and a field of type
 * `U` (or `[U]`) holds references to objects of any member. The generated API adds `UFilter` (with
 * `memberTypes`), `UType` and `URef` (one member key per Ref).
 */

/** Names the generated API declares for a union `U`; they must match api/union-blocks.ts. */
export function generatedUnionNames(union: string): string[] {
  return [`${union}Filter`, `${union}Ref`, `${union}Type`];
}

const ROOT_NAMES: readonly string[] = ['Query', 'Mutation', 'Subscription'];

export function unionModelsOf(declarations: Declarations, kindOf: (name: string) => NameKind | undefined, errors: ErrorSink): Map<string, UnionModel> {
  const unions = new Map<string, UnionModel>();
  for (const [name, node] of declarations.unions) {
    if (ROOT_NAMES.includes(name)) {
      errors.at(typeMessage(name, `${name} is a root type of the generated API; a union cannot take its name`), node.name);
      continue;
    }
    for (const directive of node.directives ?? []) {
      errors.at(typeMessage(name, `@${directive.name.value} is not allowed on a union`), directive);
    }
    const members = membersOf(name, node, kindOf, errors);
    if (members.length === 0) continue;
    const model: UnionModel = { name, members, loc: locationOf(node.name) };
    if (node.description) model.description = node.description.value;
    unions.set(name, model);
  }
  reportNameClashes(declarations, errors);
  return unions;
}

function membersOf(union: string, node: UnionTypeDefinitionNode, kindOf: (name: string) => NameKind | undefined, errors: ErrorSink): string[] {
  const members: string[] = [];
  if ((node.types ?? []).length === 0) errors.at(typeMessage(union, 'a union needs at least one member type'), node.name);
  for (const member of node.types ?? []) {
    const name = member.name.value;
    const kind = kindOf(name);
    if (kind === undefined) errors.at(typeMessage(union, `unknown member type ${name}`), member);
    else if (kind !== 'type') errors.at(typeMessage(union, `member ${name} is ${describeKind(kind)}; the members of a union are object types`), member);
    else if (members.includes(name)) errors.at(typeMessage(union, `member ${name} is listed more than once`), member);
    else members.push(name);
  }
  return members;
}

function describeKind(kind: NameKind): string {
  switch (kind) {
    case 'interface': return 'an interface';
    case 'union': return 'a union';
    case 'enum': return 'an enum';
    case 'scalar': return 'a scalar';
    case 'root': return 'a root type';
    case 'type': return 'an object type';
    case 'input': return 'an input type';
    case 'remote': return 'a @remote type (not stored; only a @remote union may hold it)';
  }
}

/** A declared name the generated API takes for a union (`ResidentFilter` next to `union Resident`). */
function reportNameClashes(declarations: Declarations, errors: ErrorSink): void {
  const generatedBy = new Map<string, string>();
  for (const union of declarations.unions.keys()) for (const name of generatedUnionNames(union)) generatedBy.set(name, union);
  const declared = [
    ...[...declarations.objects.values()].map((declaration) => declaration.node.name),
    ...[...declarations.enums.values()].map((declaration) => declaration.node.name),
    ...[...declarations.unions.values()].map((node) => node.name),
    ...[...declarations.inputs.values()].map((node) => node.name),
  ];
  for (const nameNode of declared) {
    const union = generatedBy.get(nameNode.value);
    if (union) errors.at(typeMessage(nameNode.value, `the name clashes with ${nameNode.value}, which the generated API declares for union ${union}`), nameNode);
  }
}

/**
 * A union field stores bare ids and finds them in every member's collection, so an id must name an object
 * of one member only. Generated ids are unique across collections; ids the caller supplies (`ID! @id`, an
 * extended type's key) are not, so at most one member may take them.
 */
export function checkUnionMembers(declarations: Declarations, drafts: ReadonlyMap<string, TypeDraft>, unions: ReadonlyMap<string, UnionModel>, errors: ErrorSink): void {
  for (const union of unions.values()) {
    const supplying = union.members.filter((member) => {
      const draft = drafts.get(member);
      return draft !== undefined && (draft.directives.extended || draft.fields.some((field) => field.model.suppliedByCaller === true));
    });
    if (supplying.length < 2) continue;
    const nodes = (declarations.unions.get(union.name)?.types ?? []).filter((node) => supplying.includes(node.name.value));
    errors.at(
      typeMessage(union.name, `members ${supplying.join(', ')} all take their ids from the caller (ID @id or an extended type's key), so one id could name an object of each; at most one member of a union may`),
      ...nodes,
    );
  }
}

/** A field of union type holds references in one direction only: Dgraph has no inverse for it either. */
export function checkUnionFields(drafts: ReadonlyMap<string, TypeDraft>, unions: ReadonlyMap<string, UnionModel>, errors: ErrorSink): void {
  for (const draft of drafts.values()) {
    for (const field of draft.ownFields) {
      const { model } = field;
      if (model.of.kind !== 'relation' || !unions.has(model.of.target)) continue;
      const hasInverse = field.directives.get('hasInverse');
      if (hasInverse) errors.at(fieldMessage(draft.name, model.name, `@hasInverse is not supported on a field of union type (${model.of.target})`), hasInverse);
    }
  }
}
