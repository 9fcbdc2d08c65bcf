// The type-check worker from the TypeScript sources (tests, a checkout
// without a fresh build): workers start in plain Node, so register tsx's
// loader first. The build (dist/) starts the compiled typecheck-worker.js.
const { register } = await import('tsx/esm/api');
register();
await import('./typecheck-worker.ts');
