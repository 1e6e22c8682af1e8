export { createLambdaHost } from './lambda-host.js';
export type {
  LambdaAuthHeader,
  LambdaBatchInput,
  LambdaCallInput,
  LambdaGraphqlExecutor,
  LambdaHost,
  LambdaHostOptions,
  LambdaLogger,
  LambdaRegistrations,
  LambdaResolverKind,
  LambdaWebhookInput,
} from './lambda-host.js';
export { LambdaCallError, LambdaScriptError } from './lambda-errors.js';
export type { LambdaCallFailure } from './lambda-errors.js';

export { callCustomHttp, CustomHttpError } from './http-resolver.js';
export type { CustomHttpBatchOptions, CustomHttpSingleOptions, IncomingHeaders } from './http-resolver.js';
export { bodyTemplateVariables, BodyTemplateError, parseBodyTemplate, renderBodyTemplate } from './body-template.js';
export type { BodyTemplate } from './body-template.js';
export { renderUrlTemplate, urlTemplateVariables, UrlTemplateError } from './url-template.js';
export { isHostAllowed } from './host-allow-list.js';
export { customHttpProblems } from './http-config-check.js';
export type { CustomHttpCheckOptions } from './http-config-check.js';
export { lambdaFieldsOf, missingLambdaResolvers, resolverNameFor } from './lambda-bindings.js';
export type { LambdaField } from './lambda-bindings.js';
export { customHttpFetch } from './get-with-body.js';
export { WebhookDispatcher, WEBHOOK_DEFAULTS } from './webhook-dispatcher.js';
export type { CommittedMutation, WebhookDispatcherOptions, WebhookEvent, WebhookListener } from './webhook-dispatcher.js';
export { callsWebhook, missingWebhooks, webhookName, webhooksOf } from './webhook-bindings.js';
export type { MutationOperation } from './webhook-bindings.js';
