import { ClientInputError } from '../errors/codes.js';

/**
 * A GraphQL argument (filter, order, pagination, aggregate selection) that cannot be translated into a
 * store query. The message says which type, field and operator or value is at fault, so it reaches the
 * client unchanged, with the code BAD_USER_INPUT.
 */
export class QueryArgumentError extends ClientInputError {
  constructor(message: string) {
    super(message);
    this.name = 'QueryArgumentError';
  }
}
