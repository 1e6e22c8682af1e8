export { createLambdaHost } from './lambda-host.js';
export type {
  LambdaAuthHeader,
  LambdaBatchInput,
  LambdaCallInput,
  LambdaGraphqlExecutor,
  LambdaHost,
  LambdaHostOptions,
  LambdaLogger,
  LambdaResolverKind,
} from './lambda-host.js';
export { LambdaCallError, LambdaScriptError } from './lambda-errors.js';
export type { LambdaCallFailure } from './lambda-errors.js';
