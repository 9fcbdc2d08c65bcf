/**
 * Per-call latency of the same pre-tool decision, row by row: the in-process
 * floor, a native listener through the seam bus, the wasm hook on the main
 * thread and through the isolated runner, and process-per-call shell hooks.
 * Two more pairs split the wasm cost: the PDK's JS engine with no policy,
 * and a WAT hook with no engine at all (the runner's own round trip).
 */
import type { ListenerOutcome } from '../host/events/index.ts';
import { SeamBus, nativeHook } from '../host/events/index.ts';
import type { HookRunner, WasmHook } from '../host/runner/index.ts';
import type { PreToolDecision } from '../host/seams/index.ts';
import { EXPECTED_ACTION, NEXT, PAYLOAD, SESSION, guardDecision, type BenchHook } from './fixtures.ts';
import { type LatencyTask, type Summary, measureRounds } from './harness.ts';
import { callMainThread, compileForMainThread, createMainThreadInstance } from './main-thread.ts';
import { nodeHook, shHook } from './shell.ts';

/** Row ids, in table order. */
export const LATENCY_ROWS = [
  'floor',
  'native',
  'wasm-main',
  'wasm-isolated',
  'shell-sh',
  'shell-node',
  'js-main',
  'js-isolated',
  'wat-main',
  'wat-isolated',
] as const;
export type LatencyRowId = (typeof LATENCY_ROWS)[number];

export interface LatencyRow {
  readonly id: LatencyRowId;
  readonly label: string;
  readonly what: string;
  readonly summary: Summary;
}

export interface LatencyHooks {
  readonly guardBash: BenchHook;
  readonly allowHook: BenchHook;
  readonly watAllow: BenchHook;
}

export interface LatencyOptions {
  readonly rounds: number;
  /** Multiplies every time budget and iteration count (0.3 for `--quick`). */
  readonly scale: number;
  readonly timeoutMs: number;
  readonly onProgress: (message: string) => void;
}

const LABELS: Record<LatencyRowId, { label: string; what: string }> = {
  floor: { label: 'floor', what: 'in-process `await policy(payload)` (guard-bash policy.ts, V8)' },
  native: { label: 'native hook', what: 'the same policy as a nativeHook listener, SeamBus.dispatch' },
  'wasm-main': { label: 'wasm main-thread', what: 'guard-bash.wasm through Extism on the main thread: msgpack → wasm → decode → zod' },
  'wasm-isolated': { label: 'wasm isolated', what: 'the same through HookRunner (worker, shared-memory channel, wall timeout on)' },
  'shell-sh': { label: 'shell hook (sh)', what: "spawn `sh -c '<policy in builtins>'`, JSON stdin → stdout, zod" },
  'shell-node': { label: 'shell hook (node)', what: 'spawn `node guard.mjs`, JSON stdin → stdout, zod' },
  'js-main': { label: 'js engine main', what: 'PDK allow hook (QuickJS + msgpack decode, no policy), main thread' },
  'js-isolated': { label: 'js engine isolated', what: 'the same through HookRunner' },
  'wat-main': { label: 'runner floor main', what: 'WAT hook reading the input then allowing (no engine), main thread' },
  'wat-isolated': { label: 'runner floor isolated', what: 'the same through HookRunner: the isolation round trip itself' },
};

function expectAllow(row: string, outcome: ListenerOutcome<PreToolDecision> | PreToolDecision): void {
  const action = 'type' in outcome ? (outcome.type === 'decision' ? outcome.decision.action : outcome.type) : outcome.action;
  if (action !== EXPECTED_ACTION) throw new Error(`bench row ${row} decided ${JSON.stringify(outcome)}, expected ${EXPECTED_ACTION}`);
}

/** Times every row in interleaved rounds; every row is checked to reach the same decision first. */
export async function measureLatency(runner: HookRunner, hooks: LatencyHooks, options: LatencyOptions): Promise<LatencyRow[]> {
  const n = (value: number) => Math.max(1, Math.round(value * options.scale));
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const bus = new SeamBus();
    bus.use(
      nativeHook({
        name: 'guard-bash-native',
        tools: ['bash'],
        handlers: { 'tools/pre-execute': (payload, context) => guardDecision(payload, context.session.cwd) },
      }),
    );
    const floor = async (payload: typeof PAYLOAD) => guardDecision(payload, SESSION.cwd);

    const mainRow = async (hook: BenchHook) => {
      const instance = await createMainThreadInstance(await compileForMainThread(hook.bytes, `${hook.name}.wasm`));
      cleanup.push(() => instance.close());
      return () => callMainThread(instance, PAYLOAD, SESSION, NEXT);
    };
    const isolatedRow = async (hook: BenchHook) => {
      const loaded: WasmHook = await runner.load({ name: `${hook.name}-latency`, wasm: hook.bytes, limits: { timeoutMs: options.timeoutMs } });
      cleanup.push(() => loaded.close());
      return () => loaded.invoke({ seam: 'tools/pre-execute', payload: PAYLOAD, next: NEXT, session: SESSION });
    };
    const sh = shHook();
    const node = await nodeHook();
    cleanup.push(() => node.close());

    const fns: Record<LatencyRowId, () => Promise<ListenerOutcome<PreToolDecision> | PreToolDecision>> = {
      floor: () => floor(PAYLOAD),
      native: async () => (await bus.dispatch('tools/pre-execute', PAYLOAD, SESSION)).decision,
      'wasm-main': await mainRow(hooks.guardBash),
      'wasm-isolated': await isolatedRow(hooks.guardBash),
      'shell-sh': () => sh.call(PAYLOAD, SESSION),
      'shell-node': () => node.call(PAYLOAD, SESSION),
      'js-main': await mainRow(hooks.allowHook),
      'js-isolated': await isolatedRow(hooks.allowHook),
      'wat-main': await mainRow(hooks.watAllow),
      'wat-isolated': await isolatedRow(hooks.watAllow),
    };
    for (const id of LATENCY_ROWS) expectAllow(id, await fns[id]());

    // Budgets per round: enough samples for a p99 on the fast rows, ~20 spawns of node in all.
    const budget: Record<LatencyRowId, { timeMs: number; min: number; warmup: number }> = {
      floor: { timeMs: 250, min: 500, warmup: 200 },
      native: { timeMs: 250, min: 500, warmup: 200 },
      'wasm-main': { timeMs: 700, min: 100, warmup: 30 },
      'wasm-isolated': { timeMs: 700, min: 100, warmup: 30 },
      'shell-sh': { timeMs: 0, min: 40, warmup: 2 },
      'shell-node': { timeMs: 0, min: 7, warmup: 1 },
      'js-main': { timeMs: 400, min: 200, warmup: 50 },
      'js-isolated': { timeMs: 400, min: 200, warmup: 50 },
      'wat-main': { timeMs: 400, min: 500, warmup: 200 },
      'wat-isolated': { timeMs: 400, min: 500, warmup: 200 },
    };
    const tasks: LatencyTask[] = LATENCY_ROWS.map((id) => ({
      id,
      fn: fns[id],
      timeMs: budget[id].timeMs * options.scale,
      minIterations: n(budget[id].min),
      warmupIterations: n(budget[id].warmup),
    }));
    const summaries = await measureRounds(tasks, options.rounds, (round) => options.onProgress(`latency round ${round + 1}/${options.rounds}`));
    return LATENCY_ROWS.map((id) => ({ id, ...LABELS[id], summary: summaries.get(id) as Summary }));
  } finally {
    for (const close of cleanup.reverse()) await close().catch(() => undefined);
  }
}
