/** Subscriptions: the registry of running ones, the change feed turned into batched re-runs, the graphql-ws hooks. */
export { LiveRegistry } from './registry.js';
export { LiveQuery } from './live-query.js';
export type { LiveListener } from './listener.js';
export { liveServerOptions, type LiveTransportOptions, type SocketExtra } from './transport.js';
export { DEFAULT_LIVE_SETTINGS, liveSettings, type LiveSettings } from './settings.js';
export { schemaChangedResult } from './errors.js';
