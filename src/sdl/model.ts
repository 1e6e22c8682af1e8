/**
 * The SchemaModel: everything the rest of the service derives from a user's schema text.
 * Built once per upload by `buildSchemaModel` (sdl/build.ts) and never mutated afterwards.
 */

export type ScalarName = 'ID' | 'String' | 'Int' | 'Int64' | 'Float' | 'Boolean' | 'DateTime';

export const SCALAR_NAMES: readonly ScalarName[] = ['ID', 'String', 'Int', 'Int64', 'Float', 'Boolean', 'DateTime'];

/** Search index names accepted by `@search(by: [...])`. */
export type SearchIndex =
  | 'hash' | 'exact' | 'term' | 'fulltext' | 'ngram' | 'trigram' | 'regexp'
  | 'int' | 'int64' | 'float' | 'bool' | 'day' | 'month' | 'year' | 'hour';

export interface SourceLocation {
  line: number;
  column: number;
}

/** What a field holds once the list/non-null wrappers are taken off. */
export type FieldKind =
  | { kind: 'scalar'; scalar: ScalarName }
  | { kind: 'enum'; enumName: string }
  | { kind: 'relation'; target: string };

export interface FieldModel {
  name: string;
  /** The declared type text, e.g. `[Task!]!`, kept to print the generated API faithfully. */
  typeText: string;
  /** Named type at the core of the declared type (e.g. `Task` for `[Task!]!`). */
  namedType: string;
  of: FieldKind;
  list: boolean;
  nonNull: boolean;
  /** For lists: whether the items are non-null (`[T!]`). */
  itemNonNull: boolean;
  /** The field is the type's `ID` field; its value is the document `_id`. */
  isIdField: boolean;
  /** `@id`: unique per type, usable in `getT` and as an upsert key. */
  isUniqueId: boolean;
  /**
   * The `ID` field declared with `@id`: the caller supplies its value on add instead of the store
   * generating it (Autograph's addition; Dgraph always generates an `ID`).
   */
  suppliedByCaller?: true;
  /** `@search(by: [...])` indexes; `@search` with no argument gives the scalar's default index. */
  search: SearchIndex[];
  /** `@hasInverse(field: ...)` as written on this field. */
  hasInverse?: string;
  /** Federation. */
  external: boolean;
  /** `@provides(fields:)`: the top-level field names, and the whole selection as written (nested in Fed 2). */
  provides?: string[];
  providesSelection?: string;
  /** `@requires(fields:)`: the top-level field names, and the whole selection as written (nested in Fed 2). */
  requires?: string[];
  requiresSelection?: string;
  /** Federation 2 marks printed for the gateway (`@shareable`, `@inaccessible`, `@tag`, `@override`, composed directives). */
  marks?: FederationMarks;
  /** Custom logic: the field is resolved by a lambda or an HTTP call, never stored. */
  lambda: boolean;
  /** A `@lambda` Query field marked `@withSubscription`: also a subscription, re-run when stored data changes. */
  withSubscription?: boolean;
  custom?: CustomHttpConfig;
  /**
   * Relations only. `storedHere`: this side's documents hold the related ids (a single id, or an array of
   * ids for a list). Otherwise the field is derived by querying `inverse` on the target type, so the two
   * sides of a `@hasInverse` pair can never disagree. Side choice: a single side stores over a list side;
   * with equal cardinality the side that declares `@hasInverse` stores (both declare: the smaller
   * `Type.field` name).
   */
  storedHere?: boolean;
  /** Relations only: the paired field on the target type, from `@hasInverse` on either side. */
  inverse?: { type: string; field: string };
  /** Field arguments as written (only meaningful for @lambda / @custom fields). */
  args: ArgumentModel[];
  /** The interface that declared this field, when it is inherited. */
  inheritedFrom?: string;
  description?: string;
  /** `@deprecated`: the reason (GraphQL's default "No longer supported" when none is given). */
  deprecationReason?: string;
  loc: SourceLocation;
  /**
   * `@id(interface: true)` on an interface's field: the interface named here, across whose implementing
   * types the value is unique. Without it an `@id` is unique per type.
   */
  uniqueAcrossInterface?: string;
  /** `@default(add:, update:)`: what an add or update writes when its input leaves the field out. */
  defaults?: FieldDefaults;
  /**
   * `@dgraph(pred:)`: the document field the value is stored under, when it is not the field's name
   * (already made safe for MongoDB by `storedNameOf`, sdl/storage-names.ts).
   */
  storedName?: string;
  /** `@dgraph(pred: "~p")`: the Dgraph reverse predicate `p` as written (the field is then derived from its forward edge). */
  reversePredicate?: string;
  /**
   * `@dgraph(pred: "P@hi:en")`, `"P@hi:en:."` or `"P@."`: a language preference (sdl/language-tags.ts).
   * Read-only: the value is that of the first of `paths` (stored paths) holding one. `multiLanguage`: a
   * `:` list, which Dgraph leaves out of filters and orders too.
   */
  languagePreference?: { paths: string[]; multiLanguage: boolean };
}

/** `@default` values as written (`"42"`, `"true"`, an enum value, or `DEFAULT_NOW` on a DateTime). */
export interface FieldDefaults {
  add?: string;
  update?: string;
}

/** `@default(value: "$now")`: the time of the write. */
export const DEFAULT_NOW = '$now';

/** `@secret(field:, pred:)`: a write-only password; only its bcrypt hash is stored, under `storedName`. */
export interface SecretField {
  /** The input and `checkTPassword` argument name (`password`). */
  name: string;
  storedName: string;
}

export interface ArgumentModel {
  name: string;
  typeText: string;
  namedType: string;
}

export interface CustomHttpConfig {
  url: string;
  method: string;
  body?: string;
  forwardHeaders: string[];
  secretHeaders: string[];
  mode: 'SINGLE' | 'BATCH';
}

export interface AuthRule {
  /** Exactly one of these is set. */
  rule?: string;
  and?: AuthRule[];
  or?: AuthRule[];
  not?: AuthRule;
}

export interface AuthRules {
  query?: AuthRule;
  add?: AuthRule;
  update?: AuthRule;
  delete?: AuthRule;
  /** Which objects `checkTPassword` may answer (Dgraph's `password` rule). */
  password?: AuthRule;
}

export interface TypeModel {
  name: string;
  kind: 'type' | 'interface';
  /** All fields in Dgraph's order: omitted interface fields first (the last interface's first), then the type's own. */
  fields: FieldModel[];
  fieldsByName: ReadonlyMap<string, FieldModel>;
  /** Interfaces this type implements. */
  implements: string[];
  /** The `ID` field, if the type has one. */
  idField?: FieldModel;
  /**
   * Federation: the field that identifies a stored object across services, a key of one field that is the
   * `ID` or an `@id` field (the first such `@key`). For an extended type its value is the document `_id`.
   */
  key?: string;
  /** Federation: every `@key`, in declaration order (Federation 1: at most one). */
  keys: KeyModel[];
  /** Federation: declared with `@extends` or `extend type`; the owner is another service. */
  extended: boolean;
  auth?: AuthRules;
  /** `@withSubscription` (Dgraph): `getT`, `queryT` and `aggregateT` are also subscriptions. */
  withSubscription?: boolean;
  /** Federation 2 marks printed for the gateway (`@shareable`, `@inaccessible`, `@tag`, `@interfaceObject`, composed directives). */
  marks?: FederationMarks;
  description?: string;
  loc: SourceLocation;
  /** `@dgraph(type:)`: the collection the objects are stored in, when it is not the type name (made safe by `storedNameOf`). */
  storedName?: string;
  /** `@secret(field:, pred:)`. */
  secret?: SecretField;
  /** `@generate`: the operations switched on and off (absent: Dgraph's defaults, everything but subscriptions). */
  generate?: GenerateSettings;
  /** `@lambdaOnMutate`: which committed mutations of this type call the lambda script's webhooks. */
  lambdaOnMutate?: LambdaOnMutate;
}

/**
 * `@lambdaOnMutate(add:, update:, delete:)` (Dgraph): after an `addT` / `updateT` / `deleteT` of this type
 * commits, the script's webhook `T.add` / `T.update` / `T.delete` is called with the event.
 */
export interface LambdaOnMutate {
  add: boolean;
  update: boolean;
  delete: boolean;
}

/** `@generate(query: {get, query, password, aggregate}, mutation: {add, update, delete}, subscription)`. */
export interface GenerateSettings {
  get: boolean;
  query: boolean;
  password: boolean;
  aggregate: boolean;
  add: boolean;
  update: boolean;
  delete: boolean;
  subscription: boolean;
}

/** One field of a federation `fields:` selection: `sku`, or `variation { id }` with its sub-selection. */
export interface FieldSelection {
  name: string;
  selections?: FieldSelection[];
}

export interface KeyModel {
  /** The selection printed in normal form (`sku variation { id }`). */
  fields: string;
  selection: FieldSelection[];
  /** `resolvable: false`: other services may reference the entity by this key, but `_entities` here does not resolve it. */
  resolvable: boolean;
}

/** Federation 2 directives that only matter to composition: carried from the schema to `_service { sdl }`. */
export interface FederationMarks {
  shareable: boolean;
  inaccessible: boolean;
  tags: string[];
  /** Types only: `@interfaceObject`, an interface of another subgraph seen here as an object type. */
  interfaceObject?: boolean;
  /** Fields only: `@override(from:, label:)`. */
  override?: { from: string; label?: string };
  /** Usages of `@composeDirective` directives, printed as written (`@custom`, `@lowercase(on: true)`). */
  composed: string[];
}

/** How the schema takes part in a federated graph. */
export interface FederationSettings {
  /** 1 without `@link`; 2 when `extend schema @link(url: "https://specs.apollo.dev/federation/v2.x")` opts in. */
  version: 1 | 2;
  /** Federation 2: the spec URL as linked (`https://specs.apollo.dev/federation/v2.3`). */
  specUrl?: string;
  /** Federation 2: the custom directives composed by `@composeDirective`, with the spec `@link` that imports them. */
  composedDirectives: ComposedDirective[];
}

export interface ComposedDirective {
  name: string;
  /** The `@link(url:)` importing it. */
  linkUrl: string;
  /** The directive definition as written, printed (`directive @custom on OBJECT`). */
  definition: string;
  /** Where its definition lets it stand (`OBJECT`, `INTERFACE`, `FIELD_DEFINITION`). */
  locations: string[];
}

export const FEDERATION_1: FederationSettings = Object.freeze({ version: 1, composedDirectives: [] }) as FederationSettings;

export interface EnumModel {
  name: string;
  values: string[];
  loc: SourceLocation;
  /** `@deprecated` values: the reason by value name. */
  deprecations?: Readonly<Record<string, string>>;
  description?: string;
  /** The values' descriptions, by value name (only the values that have one). */
  valueDescriptions?: Readonly<Record<string, string>>;
}

/** The JWT signature algorithms the authorization line accepts (JWS names, RFC 7518 and RFC 8037). */
export const JWT_ALGORITHMS = ['RS256', 'HS256', 'ES256', 'EdDSA'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

interface AuthorizationSettings {
  header: string;
  namespace: string;
  audience: string[];
  closedByDefault: boolean;
}

/** Tokens signed with one key written in the schema (`VerificationKey` and `Algo`). */
export interface StaticKeyAuthorization extends AuthorizationSettings {
  /** A PEM public key (RS256, ES256, EdDSA) or the shared secret (HS256). */
  verificationKey: string;
  algo: JwtAlgorithm;
  jwkUrls?: undefined;
}

/** Tokens signed with keys published as JSON Web Key Sets (`JWKUrl` or `JWKUrls`); each key names its algorithm. */
export interface KeySetAuthorization extends AuthorizationSettings {
  jwkUrls: string[];
  verificationKey?: undefined;
  algo?: undefined;
}

export type AuthorizationConfig = StaticKeyAuthorization | KeySetAuthorization;

export interface SchemaModel {
  /** Object types and interfaces that get generated operations, by name. Excludes Query/Mutation. */
  types: ReadonlyMap<string, TypeModel>;
  enums: ReadonlyMap<string, EnumModel>;
  /** Fields of user-declared `type Query` / `type Mutation` (custom logic: @lambda / @custom only). */
  customQueries: FieldModel[];
  customMutations: FieldModel[];
  authorization?: AuthorizationConfig;
  federation: FederationSettings;
  /** The schema text exactly as uploaded. */
  source: string;
  /** User-declared `input` types, printed as written into the generated API (absent: none declared). */
  inputs?: ReadonlyMap<string, InputModel>;
  /** `union U = A | B` declarations, by name (absent: none). A field of union type holds ids of member objects. */
  unions?: ReadonlyMap<string, UnionModel>;
  /**
   * `@remote` types, interfaces and unions, by name (absent: none): never stored, with no generated
   * operations, filters or inputs; what `@custom`/`@lambda` fields answer (Dgraph's `@remote`).
   */
  remoteTypes?: ReadonlyMap<string, RemoteTypeModel>;
}

/** A `@remote` type, interface or union, printed into the generated API as written (inherited interface fields first). */
export interface RemoteTypeModel {
  name: string;
  kind: 'type' | 'interface' | 'union';
  /** Types and interfaces: their fields (a type's inherited interface fields first, as Dgraph prints them). */
  fields: RemoteFieldModel[];
  /** Types: the `@remote` interfaces they implement. */
  implements: string[];
  /** Unions: the member object types (stored or `@remote`), in declaration order. */
  members: string[];
  description?: string;
  loc: SourceLocation;
}

export interface RemoteFieldModel {
  name: string;
  /** The declared type text, e.g. `[Car!]`. */
  typeText: string;
  namedType: string;
  list: boolean;
  /** Arguments as written (the API prints them; the remote answer is taken as given). */
  args: ArgumentModel[];
  /** `@remoteResponse(name:)`: the key of the remote answer that holds this field's value. */
  remoteName?: string;
  description?: string;
  deprecationReason?: string;
}

/** A user-declared `input` type: the argument type of custom operations and fields. */
export interface InputModel {
  name: string;
  fields: InputFieldModel[];
  description?: string;
  loc: SourceLocation;
}

export interface InputFieldModel {
  name: string;
  /** The declared type text, e.g. `[String!]!`. */
  typeText: string;
  namedType: string;
  description?: string;
}

export interface UnionModel {
  name: string;
  /** Object types, in declaration order. */
  members: string[];
  description?: string;
  loc: SourceLocation;
}

/** A schema error with where it happened; an upload answers with all of them together. */
export interface SchemaError {
  message: string;
  locations: SourceLocation[];
}
