// Preload for child processes that run TypeScript sources directly (`node -r <this file> src/x.ts`):
// ts-node without type checking, with the resolver that maps module node16's `./y.js` imports to `./y.ts`.
require('ts-node').register({ transpileOnly: true, experimentalResolver: true });
