/** A `@custom(http:)` field that could not be resolved; the message names the field. */
export class CustomHttpError extends Error {
  override readonly name = 'CustomHttpError';

  constructor(
    /** The field as "Type.field". */
    readonly field: string,
    readonly reason: string,
    /** The remote answer's HTTP status, when there was one. */
    readonly status?: number,
  ) {
    super(`@custom field ${field}: ${reason}`);
  }
}
