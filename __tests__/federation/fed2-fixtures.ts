import { composeServices as composeWithApollo } from '@apollo/composition';
import { composeServices as composeWithGuild } from '@theguild/federation-composition';
import { parse, printSchema } from 'graphql';

/** A Federation 2 Autograph schema using every supported directive, and the subgraph it composes with. */

export const CATALOG = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.7",
        import: ["@key", "@shareable", "@inaccessible", "@tag", { name: "@override", as: "@movedFrom" }, "@external", "@requires", "@provides"])

type Product @key(fields: "id") @key(fields: "sku package") @key(fields: "sku variation { id }") @key(fields: "code", resolvable: false) @tag(name: "catalog") {
  id: ID!
  sku: String @search(by: [hash])
  package: String
  code: String
  variation: ProductVariation
  notes: String @tag(name: "internal")
  cost: Int @inaccessible
  title: String @shareable
  createdBy: User @provides(fields: "total")
}

type ProductVariation {
  id: ID!
  name: String
}

type Supplier @inaccessible {
  id: ID!
  name: String
}

extend type User @key(fields: "email") {
  email: ID! @external
  name: String @movedFrom(from: "users", label: "percent(100)")
  total: Int @external
}
`;

/** The subgraph that owned `User.name` before Autograph took it over with `@override`. */
export const USERS_SUBGRAPH = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])

type User @key(fields: "email") {
  email: ID!
  name: String
  total: Int @shareable
}

type Query {
  users: [User]
}
`;

export interface Subgraph {
  name: string;
  url: string;
  sdl: string;
}

/** The supergraph's public (client-facing) SDL from each composer, or their errors. */
export function composeBoth(subgraphs: readonly Subgraph[]): {
  apollo: { errors: string[]; supergraphSdl?: string; apiSdl?: string };
  guild: { errors: string[]; supergraphSdl?: string; apiSdl?: string };
} {
  const services = subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) }));
  const apollo = composeWithApollo(services);
  const guild = composeWithGuild(services);
  return {
    apollo: apollo.errors
      ? { errors: apollo.errors.map((error) => error.message) }
      : { errors: [], supergraphSdl: apollo.supergraphSdl, apiSdl: printSchema(apollo.schema.toAPISchema().toGraphQLJSSchema()) },
    guild: guild.errors
      ? { errors: guild.errors.map((error) => error.message) }
      : { errors: [], supergraphSdl: guild.supergraphSdl, apiSdl: guild.publicSdl },
  };
}
