export { generateApi, type GeneratedApi } from './generate.js';
export { names, type OperationKind } from './names.js';
export * from './fields.js';
