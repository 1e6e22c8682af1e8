/**
 * The generated API as an executable Federation 1 or 2 subgraph schema, built by graphql-js in one pass.
 *
 * Apollo's buildSubgraphSchema builds its own federation model of the document, validates that, prints
 * it twice (once for `_service`, once to hand it to graphql-js) and parses it again before graphql-js
 * builds the schema: about three quarters of the time a 500-type schema held the event loop (profiled
 * with `node --cpu-prof`). The generated SDL has no `@link`, sdl/ already checked its federation
 * directives, and `_service` answers the gateway SDL of api/; so what buildSubgraphSchema adds here is
 * fixed and added directly: the Federation 1 directives and types, `Query._service`, and, when some type
 * has a `@key`, `_Entity` and `Query._entities` with Apollo's own entities resolver. graphql-js still
 * validates the whole document and the built schema, so a broken generated API is refused at upload.
 */
import { addResolversToSchema, type GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/index.js';
import { entitiesResolver } from '@apollo/subgraph/dist/types.js';
import { buildASTSchema, GraphQLError, Kind, parse, validateSchema, type DefinitionNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { validateSDL } from 'graphql/validation/validate.js';

/** What buildSubgraphSchema declares for a Federation 1 subgraph (the same definitions, as it prints them). */
const FEDERATION_1_DEFINITIONS = parse(`
directive @key(fields: _FieldSet!, resolvable: Boolean = true) repeatable on OBJECT | INTERFACE
directive @requires(fields: _FieldSet!) on FIELD_DEFINITION
directive @provides(fields: _FieldSet!) on FIELD_DEFINITION
directive @external(reason: String) on OBJECT | FIELD_DEFINITION
directive @tag(name: String!) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION
directive @extends on OBJECT | INTERFACE
scalar _FieldSet
scalar _Any
type _Service { sdl: String }
extend type Query { _service: _Service! }
`, { noLocation: true }).definitions;

/**
 * What Federation 2 adds to the executable schema, so that the generated SDL's directives are defined.
 * `_service` answers the gateway SDL with its `@link`, not these definitions.
 */
const FEDERATION_2_DEFINITIONS = parse(`
directive @shareable repeatable on OBJECT | FIELD_DEFINITION
directive @inaccessible on FIELD_DEFINITION | OBJECT | INTERFACE | UNION | ARGUMENT_DEFINITION | SCALAR | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION
directive @override(from: String!, label: String) on FIELD_DEFINITION
directive @interfaceObject on OBJECT
`, { noLocation: true }).definitions;

const ENTITY_DEFINITIONS = (entityTypeNames: readonly string[]): readonly DefinitionNode[] =>
  parse(`union _Entity = ${entityTypeNames.join(' | ')}\nextend type Query { _entities(representations: [_Any!]!): [_Entity]! }`, { noLocation: true })
    .definitions;

export interface SubgraphSchemaInput {
  /** The generated API's definitions, with locations (an SDL error points into the generated text). */
  definitions: readonly DefinitionNode[];
  /** Object types with a `@key`: the members of `_Entity`. */
  entityTypeNames: readonly string[];
  resolvers: GraphQLResolverMap<unknown>;
  /** What `_service { sdl }` answers. */
  serviceSdl: string;
  federationVersion: 1 | 2;
}

/**
 * Rejects with the GraphQLError of the first problem (with its location in the generated SDL) when the
 * document or the schema it builds is not valid. `pause` runs between the stages (SDL validation, build,
 * schema validation, resolvers), so that other work can run between them.
 */
export async function buildSubgraphApiSchema(input: SubgraphSchemaInput, pause: () => Promise<void>): Promise<GraphQLSchema> {
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      ...input.definitions,
      ...FEDERATION_1_DEFINITIONS,
      ...(input.federationVersion === 2 ? FEDERATION_2_DEFINITIONS : []),
      ...(input.entityTypeNames.length > 0 ? ENTITY_DEFINITIONS(input.entityTypeNames) : []),
    ],
  };
  throwFirst(validateSDL(document));
  await pause();
  const schema = buildASTSchema(document, { assumeValidSDL: true });
  await pause();
  throwFirst(validateSchema(schema));
  await pause();

  addResolversToSchema(schema, input.resolvers);
  addResolversToSchema(schema, federationResolvers(input.serviceSdl, input.entityTypeNames.length > 0) as GraphQLResolverMap<unknown>);
  return schema;
}

function throwFirst(problems: readonly GraphQLError[]): void {
  const [problem] = problems;
  if (problem) throw problem;
}

function federationResolvers(serviceSdl: string, hasEntities: boolean): Record<string, Record<string, unknown>> {
  const service = { sdl: serviceSdl };
  if (!hasEntities) return { Query: { _service: () => service } };
  return {
    Query: {
      _service: () => service,
      _entities: (_source: unknown, args: { representations: unknown[] }, context: unknown, info: Parameters<typeof entitiesResolver>[0]['info']) =>
        entitiesResolver({ representations: args.representations, context, info }),
    },
    _Entity: { __resolveType: (object: { __typename: string }) => object.__typename },
  };
}
