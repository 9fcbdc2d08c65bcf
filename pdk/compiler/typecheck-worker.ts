/**
 * The type-check thread's entry (started by typecheck-thread.ts): checks one
 * hook per message with {@link typecheckHook} and answers with the outcome.
 * It lives as long as its process, so the library `.d.ts` files it parsed
 * for one build serve the next (typecheck.ts's cache is per thread), and it
 * checks incrementally under the cache root, so the next build of the same
 * hook, in any process, re-checks only what changed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BuildError } from '../../host/errors.ts';
import { saveTypescriptCodeCache, typescript, useTypescriptCodeCache } from './typescript.ts';
import { buildInfoPath, typecheckHook } from './typecheck.ts';
import type { TypecheckOutcome, TypecheckRequest, TypecheckWorkerData } from './typecheck-thread.ts';

if (parentPort === null) throw new Error('typecheck-worker.ts runs as a worker thread (typecheck-thread.ts starts it)');
const port = parentPort;

const { cacheDir } = workerData as TypecheckWorkerData;

port.on('message', (request: TypecheckRequest) => {
  let outcome: TypecheckOutcome;
  try {
    typecheckHook(request.entry, request.interfaces, buildInfoPath(cacheDir, request.entry));
    saveTypescriptCodeCache();
    outcome = { id: request.id, kind: 'ok' };
  } catch (error) {
    outcome =
      error instanceof BuildError
        ? { id: request.id, kind: 'type-error', message: error.message }
        : { id: request.id, kind: 'crashed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(outcome);
});

useTypescriptCodeCache(cacheDir);
// The first request is on its way: load the compiler meanwhile.
typescript();
