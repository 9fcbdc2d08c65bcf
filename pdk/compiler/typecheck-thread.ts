/**
 * Type-checks hooks on a worker thread, so that loading TypeScript and
 * checking (~3/4 of a build) overlaps with the engine lookup, esbuild, Wizer
 * and the export rewrite on the main thread. One worker per process, started
 * on first use and kept for later builds (it keeps the parsed library files);
 * it holds the process open only while a check is pending.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { BuildError, HostError } from '../../host/errors.ts';
import { cacheRoot } from '../engine/build.ts';

/** A check request: the hook's entry and its plugin-interface `.d.ts` files. */
export interface TypecheckRequest {
  readonly id: number;
  readonly entry: string;
  readonly interfaces: readonly string[];
}

/** What the worker is started with: the cache root for TypeScript's code cache (typescript.ts) and the build infos (typecheck.ts). */
export interface TypecheckWorkerData {
  readonly cacheDir: string;
}

/** The worker's answer: passed, type errors (the BuildError message), or a bug in the checker. */
export type TypecheckOutcome =
  | { readonly id: number; readonly kind: 'ok' }
  | { readonly id: number; readonly kind: 'type-error'; readonly message: string }
  | { readonly id: number; readonly kind: 'crashed'; readonly message: string };

/**
 * The compiled worker beside this module (dist/pdk/compiler/, or dist/bin/ where the CLI bundle
 * has it as an entry), else the TypeScript source through tsx's loader.
 */
function workerUrl(): URL {
  const compiled = new URL('./typecheck-worker.js', import.meta.url);
  return existsSync(compiled) ? compiled : new URL('./typecheck-worker-tsx.mjs', import.meta.url);
}

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

class TypecheckThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(data: TypecheckWorkerData) {
    this.worker = new Worker(workerUrl(), { workerData: data });
    this.worker.unref();
    this.worker.on('message', (outcome: TypecheckOutcome) => this.settle(outcome));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the type-check worker exited with code ${code}`)));
  }

  check(entry: string, interfaces: readonly string[]): Promise<void> {
    const id = this.nextId++;
    const request: TypecheckRequest = { id, entry, interfaces };
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A pending check keeps the process alive; an idle worker does not.
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  private settle(outcome: TypecheckOutcome): void {
    const waiter = this.pending.get(outcome.id);
    this.pending.delete(outcome.id);
    if (this.pending.size === 0) this.worker.unref();
    if (outcome.kind === 'ok') waiter?.resolve();
    else if (outcome.kind === 'type-error') waiter?.reject(new BuildError(outcome.message));
    else waiter?.reject(new HostError(`the type-check worker failed: ${outcome.message}`));
  }

  /** Ends the worker (a one-shot command is done with it). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  /** The worker is gone: every pending check fails, and the next check starts a new worker. */
  private fail(error: Error): void {
    if (thread === this) thread = undefined;
    for (const waiter of this.pending.values()) waiter.reject(new HostError('the type-check worker failed', { cause: error }));
    this.pending.clear();
  }
}

let thread: TypecheckThread | undefined;

/**
 * Starts the process's type-check thread if it is not running, so that TypeScript loads there while
 * the caller loads the rest of the compiler (`hookbox build` calls it first). `cacheDir`: the cache
 * root (default {@link cacheRoot}'s), where the thread finds TypeScript's code cache; a running
 * thread keeps the one it was started with.
 */
export function startTypecheckThread(cacheDir?: string): void {
  runningThread(cacheDir);
}

/**
 * Ends the process's type-check thread, if one runs. An unreferenced worker still loading
 * TypeScript kept \`hookbox build nope.ts\` (which fails before any check) from exiting.
 */
export async function stopTypecheckThread(): Promise<void> {
  const running = thread;
  thread = undefined;
  await running?.terminate();
}

function runningThread(cacheDir: string | undefined): TypecheckThread {
  thread ??= new TypecheckThread({ cacheDir: cacheRoot(cacheDir) });
  return thread;
}

/**
 * Type-checks `entry` on the process's type-check thread (started if need be): resolves when it
 * passes, rejects with the same BuildError typecheck.ts's `typecheckHook` throws
 * (`file:line:col: error TSnnnn: …`) when it does not.
 */
export function typecheckOnThread(entry: string, interfaces: readonly string[], cacheDir?: string): Promise<void> {
  return runningThread(cacheDir).check(entry, interfaces);
}
