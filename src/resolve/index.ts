export { buildExecutableSchema, schemaExtensions, type SchemaExtensions } from './schema.js';
export { createRequestContext, type IncomingRequest, type RequestContext, type ResolverServices } from './context.js';
