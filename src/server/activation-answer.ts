import { ErrorCode } from '../errors/codes.js';
import type { ActivationError } from './activation.js';

export interface RefusedUploadBody {
  errors: Array<ActivationError & { extensions: { code: ErrorCode } }>;
}

/**
 * The body of a refused upload to /admin/*: every error keeps its message and locations and carries the
 * code of the refusal's HTTP status, like every other error the service answers. A 400 is the upload's
 * fault (`clientCode`), a 503 the store's, anything else the service's.
 */
export function refusedUploadBody(httpStatus: number, errors: ActivationError[], clientCode: ErrorCode): RefusedUploadBody {
  const statusCode = codeOfStatus(httpStatus, clientCode);
  return { errors: errors.map(({ code, ...error }) => ({ ...error, extensions: { code: code ?? statusCode } })) };
}

function codeOfStatus(httpStatus: number, clientCode: ErrorCode): ErrorCode {
  if (httpStatus === 400) return clientCode;
  if (httpStatus === 503) return ErrorCode.STORE_UNAVAILABLE;
  return ErrorCode.INTERNAL_SERVER_ERROR;
}
