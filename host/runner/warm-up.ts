/**
 * Warming a loaded hook off the critical path. A real session makes a
 * handful of calls per hook, seconds apart, so without this every one of
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
import { setFlagsFromString } from 'node:v8';
import type { PayloadOf, SeamId, SessionInfo } from '../seams/index.ts';

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
