import { FEDERATION_1, SCALAR_NAMES, type FieldModel, type ScalarName, type SchemaModel, type SearchIndex, type TypeModel } from '../../src/sdl/model.js';

/**
 * SchemaModels built by hand (the sdl/ parser is written in parallel), shaped as `buildSchemaModel` makes
 * them: kinds resolved, inherited fields first, `storedHere`/`inverse` set on relation pairs.
 */

type FieldOptions = Partial<Omit<FieldModel, 'name' | 'typeText'>>;

export interface FieldSpec {
  name: string;
  typeText: string;
  options: FieldOptions;
}

export const f = (name: string, typeText: string, options: FieldOptions = {}): FieldSpec => ({ name, typeText, options });
export const search = (...indexes: SearchIndex[]): FieldOptions => ({ search: indexes });

function fieldModel(spec: FieldSpec, enums: ReadonlySet<string>): FieldModel {
  const { name, typeText, options } = spec;
  const list = typeText.startsWith('[');
  const namedType = typeText.replace(/[[\]!]/g, '');
  const of: FieldModel['of'] = (SCALAR_NAMES as readonly string[]).includes(namedType)
    ? { kind: 'scalar', scalar: namedType as ScalarName }
    : enums.has(namedType) ? { kind: 'enum', enumName: namedType } : { kind: 'relation', target: namedType };
  return {
    name,
    typeText,
    namedType,
    of,
    list,
    nonNull: typeText.endsWith('!'),
    itemNonNull: list && typeText.includes('!]'),
    isIdField: namedType === 'ID' && !list,
    isUniqueId: false,
    search: [],
    external: false,
    lambda: false,
    args: [],
    loc: { line: 1, column: 1 },
    ...options,
  };
}

export interface TypeSpec {
  name: string;
  kind?: 'type' | 'interface';
  implements?: string[];
  fields: FieldSpec[];
  key?: string;
  extended?: boolean;
}

export function schemaModel(typeSpecs: TypeSpec[], enums: Record<string, string[]> = {}): SchemaModel {
  const enumNames = new Set(Object.keys(enums));
  const types = new Map<string, TypeModel>();
  for (const spec of typeSpecs) {
    const fields = spec.fields.map((field) => fieldModel(field, enumNames));
    types.set(spec.name, {
      name: spec.name,
      kind: spec.kind ?? 'type',
      fields,
      fieldsByName: new Map(fields.map((field) => [field.name, field])),
      implements: spec.implements ?? [],
      idField: fields.find((field) => field.isIdField),
      key: spec.key,
      keys: spec.key ? [{ fields: spec.key, selection: [{ name: spec.key }], resolvable: true }] : [],
      extended: spec.extended ?? false,
      loc: { line: 1, column: 1 },
    });
  }
  return {
    types,
    enums: new Map(Object.entries(enums).map(([name, values]) => [name, { name, values, loc: { line: 1, column: 1 } }])),
    customQueries: [],
    customMutations: [],
    federation: FEDERATION_1,
    source: '',
  };
}

/** Marks `Type.field` ↔ `Other.inverse` as a pair, the first side storing the ids. */
export function pair(storing: [string, string], derived: [string, string]): { stored: FieldOptions; derived: FieldOptions } {
  return {
    stored: { storedHere: true, inverse: { type: derived[0], field: derived[1] } },
    derived: { storedHere: false, inverse: { type: storing[0], field: storing[1] } },
  };
}

const userTasks = pair(['Task', 'user'], ['User', 'tasks']);
const userGroups = pair(['Group', 'members'], ['User', 'groups']);
const itemOwner = pair(['Item', 'owner'], ['User', 'items']);
const mentoring = pair(['User', 'mentor'], ['User', 'mentees']);

/**
 * The schema most tests use:
 *
 *   enum Status { OPEN DONE }
 *   type User { id: ID! username: String! @id @search(by: [hash]) name: String @search(by: [exact])
 *     age: Int @search  tasks: [Task] @hasInverse(field: user)  groups: [Group]  items: [Item]
 *     friends: [User]  bestFriend: User  favourites: [Item]  mentor: User
 *     mentees: [User] @hasInverse(field: mentor)  nickname: String @lambda }
 *   type Task { id: ID! title: String! @search(by: [fulltext, term]) description: String @search(by: [regexp])
 *     completed: Boolean! @search  priority: Int @search  score: Float @search(by: [float])
 *     due: DateTime @search(by: [day])  size: Int64 @search  status: Status @search(by: [hash])
 *     level: Status @search(by: [exact])  tags: [String] @search(by: [term, exact])  notes: String
 *     user: User! }
 *   type Group { id: ID! name: String @search(by: [hash, trigram]) members: [User] @hasInverse(field: groups) }
 *   interface Item { id: ID! label: String @search(by: [exact]) owner: User @hasInverse(field: items) }
 *   type Book implements Item { ... pages: Int @search }   type Movie implements Item { ... minutes: Int }
 */
export const model = schemaModel(
  [
    {
      name: 'User',
      fields: [
        f('id', 'ID!'),
        f('username', 'String!', { isUniqueId: true, search: ['hash'] }),
        f('name', 'String', search('exact')),
        f('age', 'Int', search('int')),
        f('tasks', '[Task]', { ...userTasks.derived, hasInverse: 'user' }),
        f('groups', '[Group]', userGroups.derived),
        f('items', '[Item]', itemOwner.derived),
        f('friends', '[User]', { storedHere: true }),
        f('bestFriend', 'User', { storedHere: true }),
        f('favourites', '[Item]', { storedHere: true }),
        f('mentor', 'User', mentoring.stored),
        f('mentees', '[User]', { ...mentoring.derived, hasInverse: 'mentor' }),
        f('nickname', 'String', { lambda: true }),
      ],
    },
    {
      name: 'Task',
      fields: [
        f('id', 'ID!'),
        f('title', 'String!', search('fulltext', 'term')),
        f('description', 'String', search('regexp')),
        f('completed', 'Boolean!', search('bool')),
        f('priority', 'Int', search('int')),
        f('score', 'Float', search('float')),
        f('due', 'DateTime', search('day')),
        f('size', 'Int64', search('int64')),
        f('status', 'Status', search('hash')),
        f('level', 'Status', search('exact')),
        f('tags', '[String]', search('term', 'exact')),
        f('notes', 'String'),
        f('user', 'User!', userTasks.stored),
      ],
    },
    {
      name: 'Group',
      fields: [f('id', 'ID!'), f('name', 'String', search('hash', 'trigram')), f('members', '[User]', { ...userGroups.stored, hasInverse: 'groups' })],
    },
    {
      name: 'Item',
      kind: 'interface',
      fields: [f('id', 'ID!'), f('label', 'String', search('exact')), f('owner', 'User', { ...itemOwner.stored, hasInverse: 'items' })],
    },
    {
      name: 'Book',
      implements: ['Item'],
      fields: [
        f('id', 'ID!', { inheritedFrom: 'Item' }),
        f('label', 'String', { ...search('exact'), inheritedFrom: 'Item' }),
        f('owner', 'User', { ...itemOwner.stored, inheritedFrom: 'Item' }),
        f('pages', 'Int', search('int')),
      ],
    },
    {
      name: 'Movie',
      implements: ['Item'],
      fields: [
        f('id', 'ID!', { inheritedFrom: 'Item' }),
        f('label', 'String', { ...search('exact'), inheritedFrom: 'Item' }),
        f('owner', 'User', { ...itemOwner.stored, inheritedFrom: 'Item' }),
        f('minutes', 'Int'),
      ],
    },
  ],
  { Status: ['OPEN', 'DONE'] },
);
