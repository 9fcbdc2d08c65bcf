// Worker entry. Workers start in plain Node: from the build (dist/), the
// compiled worker sits beside this file; from the TypeScript sources (tests,
// a checkout without a fresh build), register tsx's loader first.
// The compile cache the main thread uses (Node 22+), when it named one: a worker
// is its own Node instance and does not inherit it (its environment is empty).
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { workerData } from 'node:worker_threads';

if (typeof workerData?.compileCacheDir === 'string' && typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache(workerData.compileCacheDir);

const compiled = new URL('./worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker.ts');
}
