/**
 * A GraphQL argument (filter, order, pagination, aggregate selection) that cannot be translated into a
 * store query. The message says which type, field and operator or value is at fault, so resolvers can
 * hand it to the client unchanged.
 */
export class QueryArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryArgumentError';
  }
}
