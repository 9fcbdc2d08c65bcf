/**
 * Warming a loaded hook off the critical path (`warmUpHook`, called by
 * `WasmHook.warmUp`). A real session makes a handful of calls per hook,
 * seconds apart, so without this every one of
 * them runs host code V8 has not optimised yet (the worker's serve path, the
 * SDK's kernel functions, msgpack, zod) and guest code still in its baseline
 * tier. At load, after the probe, each worker runs a few synthetic calls
 * through a throwaway instance of the hook, so the first real session finds
 * the path warm.
 *
 * The throwaway instance has no capabilities (no preopened paths, no
 * environment variables), so whatever the hook does with a synthetic call
 * stays inside it: its output, faults and logs are dropped, and it is
 * disposed afterwards. The session instances are never the throwaway one,
 * so no session's Var state ever saw a synthetic call.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { type PayloadOf, type SeamId, type SessionInfo, exportForSeam, seamDefinition } from '../seams/index.ts';
import { EXPORT_NAMES } from './channel.ts';
import type { InstanceOptions } from './extism-adapter.ts';
import type { BudgetEntry, MemoryBudget } from './memory-budget.ts';
import type { WorkerPool } from './pool.ts';
import type { HookCodec } from './wire.ts';
import { WorkerGoneError } from './worker-handle.ts';

/** What a warm-up call carries, per seam: small, valid payloads (tests check them against the seam schemas). */
export const WARM_UP_PAYLOADS: { readonly [S in SeamId]: PayloadOf<S> } = {
  'agent/session-start': { source: 'startup' },
  'agent/prompt-submit': { content: 'list the files in this directory', source: 'cli' },
  'tools/pre-execute': { toolCallId: 'hookbox-warm-up', toolName: 'bash', arguments: { command: 'ls -la && git status --short' } },
  'tools/post-execute': {
    toolCallId: 'hookbox-warm-up',
    toolName: 'bash',
    arguments: { command: 'ls -la' },
    result: { content: 'total 0\n', isError: false },
  },
  'agent/turn-continuation': { continuations: 0, lastAssistantText: 'Done.' },
  'tools/permission-request': { toolCallId: 'hookbox-warm-up', toolName: 'bash', arguments: { command: 'npm install' } },
  'agent/subagent-start': { agentId: 'hookbox-warm-up', agentType: 'general-purpose' },
  'agent/subagent-stop': { agentId: 'hookbox-warm-up', agentType: 'general-purpose', continuations: 0, lastAssistantText: 'Done.' },
  'agent/notification': { kind: 'idle', message: 'Claude is waiting for your input' },
  'agent/pre-compact': { trigger: 'auto' },
  'agent/session-end': { reason: 'exit' },
};

/** The session a warm-up call names (never a real session id: real ones are UUIDs or operator-chosen). */
export const WARM_UP_SESSION: SessionInfo = { id: 'hookbox-warm-up', turn: 1, step: 1, cwd: '/' };

/** Calls per seam per hook per worker: enough for the hook's own guest code and inline caches, small enough to cost a few ms. */
export const WARM_UP_CALLS = 12;

/**
 * Calls per worker, across all its hooks, before the host code every call
 * runs (channel, serve loop, Extism kernel functions, wire encode/decode on
 * the main thread) counts as warm. V8 optimises a small function only after
 * it has run some tens of kilobytes of bytecode (about a thousand calls of
 * the per-call functions); until then a spaced session call costs 3–5× a hot
 * one. The first hook loaded on a worker pays them (~1,000 calls of the WAT
 * floor is ~0.1 s of CPU), the others only {@link WARM_UP_CALLS} per seam
 * within {@link WARM_UP_BUDGET_MS}.
 */
export const WARM_UP_HOST_CALLS = 1000;

/** Longest warm-up of one hook on one worker, in ms of wall time: a slow hook stops early. */
export const WARM_UP_BUDGET_MS = 300;

/** A synthetic call slower than this stops the warm-up of that hook (it would cost more than it saves). */
export const WARM_UP_SLOW_MS = 20;

/** What a warm-up needs of a loaded hook (a part of `WasmHookInit`). */
export interface WarmUpInit {
  readonly module: { readonly key: string; readonly guest: WebAssembly.Module; readonly wrapper: WebAssembly.Module };
  readonly instanceOptions: Omit<InstanceOptions, 'guest' | 'wrapper'>;
  readonly timeoutMs: number;
  readonly loadTimeoutMs: number;
  readonly pool: WorkerPool;
  readonly budget: MemoryBudget;
  readonly capBytes: number;
  readonly nextInstanceId: () => number;
}

/**
 * Runs synthetic calls of every configured seam through a throwaway,
 * capability-free instance on each worker, then disposes it. Outcomes are
 * dropped and never count towards quarantine. The instance and its calls are
 * `background` work on the worker: a session's work queued behind them goes
 * first.
 */
export async function warmUpHook(init: WarmUpInit, wire: HookCodec, seams: readonly SeamId[], closed: () => boolean): Promise<void> {
  const { instanceOptions, module, loadTimeoutMs, timeoutMs, pool, budget, capBytes } = init;
  // No capabilities: no preopened paths, no environment variables, no network (the clock is only read, never written).
  const { wasi, http: _http, ...rest } = instanceOptions;
  const options = { ...rest, ...(wasi !== undefined && { wasi: { ...wasi, preopens: [], env: {} } }) };
  for (const handle of pool.live()) {
    if (closed()) return;
    const id = init.nextInstanceId();
    handle.instanceCount++;
    // Counted in the runner's memory budget like any instance, pinned (never evicted) until disposed;
    // a refusal ends the warm-up (it is never worth a real session's room).
    const entry: BudgetEntry = { bytes: 0, capBytes, pinned: 0, running: false, gone: () => handle.dead, evict: () => {} };
    budget.pin(entry);
    const gate = () => budget.run(entry) === undefined;
    try {
      const created = await handle.create(id, module.key, { guest: module.guest, wrapper: module.wrapper }, options, loadTimeoutMs, gate, 'background');
      if ('refused' in created) return;
      if ('timedOut' in created || created.fault !== undefined) continue;
      const stop = performance.now() + WARM_UP_BUDGET_MS;
      calls: for (const seam of seams) {
        const exportIndex = EXPORT_NAMES.indexOf(exportForSeam(seam));
        const definition = seamDefinition(seam);
        const payload = WARM_UP_PAYLOADS[seam];
        const call = { seam, payload, next: definition.kind === 'notify' ? null : definition.defaultDecision(payload as never), session: WARM_UP_SESSION };
        for (let i = 0; (i < WARM_UP_CALLS || handle.warmUpCalls < WARM_UP_HOST_CALLS) && !closed(); i++) {
          const started = performance.now();
          if (started > stop) break calls;
          handle.warmUpCalls++;
          const result = await handle.call(id, exportIndex, wire.encode(call as never), timeoutMs, gate, 'background');
          if ('refused' in result) return;
          if ('timedOut' in result || result.discard === true) break calls;
          wire.decode(seam, result);
          if (performance.now() - started > WARM_UP_SLOW_MS) break calls;
        }
      }
    } catch (error) {
      if (!(error instanceof WorkerGoneError)) throw error;
    } finally {
      budget.release(entry);
      handle.instanceCount--;
      if (!handle.dead) handle.dispose(id);
    }
  }
}

let eagerCompilation = false;

/**
 * Makes V8 compile every function of a wasm module when the module is
 * compiled (at load, off the critical path) instead of at its first call:
 * a QuickJS engine module otherwise compiles hundreds of functions lazily
 * inside a session's first hook call (~60 ms of CPU for guard-bash's first
 * call, measured in the session bench). Process-wide, set once, before the
 * runner compiles its first module. `node --wasm-lazy-compilation` opts out.
 */
export function enableEagerWasmCompilation(): void {
  // `node --wasm-lazy-compilation` on the command line keeps V8's default (the bench's before/after does).
  if (eagerCompilation || process.execArgv.includes('--wasm-lazy-compilation')) return;
  eagerCompilation = true;
  setFlagsFromString('--no-wasm-lazy-compilation');
}

let baselineOnly = false;

/**
 * Makes V8 compile wasm with its baseline compiler (Liftoff) only, never tiering hot functions
 * up to TurboFan in the background: for a process that makes one call and exits (`oneShot` in
 * runner.ts), where those jobs are wasted work that exit waits for. Same semantics, traps and
 * limits; only the code is slower in a long loop. Process-wide, set once.
 */
export function useBaselineWasmCompilerOnly(): void {
  if (baselineOnly) return;
  baselineOnly = true;
  setFlagsFromString('--liftoff-only');
}
