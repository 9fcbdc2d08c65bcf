/**
 * Runner figures, side by side in one run (not a test):
 * - full pre-tool round trip (2–3 KB payload: msgpack → wasm → decode → zod)
 *   on the main thread through the Extism adapter vs through the worker pool;
 * - a runaway CPU hook: timeout-to-decision latency and event-loop lag;
 * - a memory bomb: time to the memory fault at the cap and event-loop lag.
 *
 * Usage: npx tsx bench/runner.ts [--calls N] [--wasm hook.wasm]
 * (default plugin: a WAT hook that reads its whole input, then allows).
 */
import { readFile } from 'node:fs/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { invokeListener } from '../host/events/invoke.ts';
import { ExtismInstance } from '../host/runner/extism-adapter.ts';
import { HookRunner, type WasmHook } from '../host/runner/index.ts';
import { prepareModule } from '../host/runner/module-prep.ts';
import { buildRcWrapper } from '../host/runner/rc-wrapper.ts';
import { wasmApi } from '../host/runner/wasm-api.ts';
import { decodeDecision, encodeEnvelope } from '../host/runner/wire.ts';
import { type PreToolPayload, SEAMS, type SessionInfo } from '../host/seams/index.ts';
import { compileWat, compileWatSource } from '../tests/helpers/wat.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '20000' }, wasm: { type: 'string' } } });
const CALLS = Number(values.calls);

/** Reads every input byte (8 at a time), then outputs {"action":"allow"}. */
const READ_ALL_THEN_ALLOW = `(module
  (import "extism:host/env" "input_length" (func $input_length (result i64)))
  (import "extism:host/env" "input_load_u64" (func $input_load_u64 (param i64) (result i64)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
  (memory (export "memory") 1 16)
  (data (i32.const 0) "\\81\\a6action\\a5allow")
  (func (export "pre_tool") (result i32) (local $n i64) (local $i i64) (local $sum i64) (local $b i64) (local $j i32)
    (local.set $n (call $input_length))
    (block $done (loop $read
      (br_if $done (i64.ge_u (i64.add (local.get $i) (i64.const 8)) (local.get $n)))
      (local.set $sum (i64.xor (local.get $sum) (call $input_load_u64 (local.get $i))))
      (local.set $i (i64.add (local.get $i) (i64.const 8)))
      (br $read)))
    (i64.store (i32.const 64) (local.get $sum))
    (local.set $b (call $alloc (i64.const 14)))
    (block $end (loop $copy
      (br_if $end (i32.ge_u (local.get $j) (i32.const 14)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $j))) (i32.load8_u (local.get $j)))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $copy)))
    (call $output_set (local.get $b) (i64.const 14))
    (i32.const 0)))`;

const session: SessionInfo = { id: 'bench', turn: 1, step: 1, cwd: '/workspace' };
const payload: PreToolPayload = {
  toolCallId: 'call_0001',
  toolName: 'bash',
  arguments: { command: `grep -rn "TODO" src/ | head -50 # ${'x'.repeat(2300)}`, timeoutMs: 30_000 },
};
const next = { action: 'allow' as const };

function percentiles(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) * 1000;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timeCalls(call: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(2000, CALLS / 5); i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return percentiles(samples);
}

async function mainThread(bytes: Uint8Array): Promise<{ p50: number; p99: number }> {
  const prepared = prepareModule(bytes, { memoryMb: 64, clock: false, env: false, source: 'bench.wasm' });
  const created = await ExtismInstance.create({
    guest: await wasmApi.compile(prepared.bytes),
    wrapper: await wasmApi.compile(buildRcWrapper(prepared.seamExports.map((s) => SEAMS[s].exportName), prepared.exportsMemory)),
    useWasi: prepared.needsWasi,
    needsOverride: prepared.needsOverride,
    allowedPaths: {},
    env: {},
    config: {},
    memoryMb: 64,
    memoryMaxPages: prepared.memory?.max,
    maxOutputBytes: 1_048_576,
  });
  if (!created.ok) throw new Error(created.fault.message);
  try {
    return await timeCalls(async () => {
      const outcome = await created.instance.call('pre_tool', encodeEnvelope('tools/pre-execute', session, payload, next));
      if (outcome.type !== 'output') throw new Error(outcome.fault.message);
      const decision = decodeDecision('tools/pre-execute', outcome.bytes);
      if (decision.type !== 'decision') throw new Error('no decision');
    });
  } finally {
    await created.instance.close();
  }
}

async function runaway(runner: HookRunner, name: string, limits: { timeoutMs: number; memoryMb?: number }) {
  const hook: WasmHook = await runner.load({ name, wasm: await compileWat(name), limits });
  const lag = monitorEventLoopDelay({ resolution: 1 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the replacement spare warm up
    lag.enable();
    const started = performance.now();
    const result = await invokeListener(hook, 'tools/pre-execute', payload, next, session);
    const elapsed = performance.now() - started;
    lag.disable();
    return { elapsedMs: elapsed, fault: result.invocation.fault?.kind, maxLagMs: lag.max / 1e6 };
  } finally {
    await hook.close();
  }
}

async function main(): Promise<void> {
  const bytes = values.wasm !== undefined ? new Uint8Array(await readFile(values.wasm)) : await compileWatSource(READ_ALL_THEN_ALLOW, 'bench.wat');
  const envelopeBytes = encodeEnvelope('tools/pre-execute', session, payload, next).byteLength;
  console.log(`plugin: ${values.wasm ?? 'WAT read-all-then-allow'}; envelope ${envelopeBytes} bytes; ${CALLS} calls per row`);

  const main = await mainThread(bytes);
  const runner = await HookRunner.start();
  try {
    const hook = await runner.load({ name: 'bench', wasm: bytes });
    const pool = await timeCalls(() => hook.invoke({ seam: 'tools/pre-execute', payload, next, session }));
    const mainRow = `main-thread Extism: p50 ${main.p50.toFixed(1)} µs  p99 ${main.p99.toFixed(1)} µs`;
    console.log(mainRow);
    console.log(
      `worker pool:        p50 ${pool.p50.toFixed(1)} µs  p99 ${pool.p99.toFixed(1)} µs  (ratio p50 ${(pool.p50 / main.p50).toFixed(2)}x, p99 ${(pool.p99 / main.p99).toFixed(2)}x)`,
    );
    await hook.close();

    for (const timeoutMs of [100, 1000]) {
      const r = await runaway(runner, 'infinite-loop', { timeoutMs });
      console.log(
        `infinite-loop, timeout ${timeoutMs} ms: decision after ${r.elapsedMs.toFixed(1)} ms (+${(r.elapsedMs - timeoutMs).toFixed(1)} ms), fault ${r.fault}, max event-loop lag ${r.maxLagMs.toFixed(1)} ms`,
      );
    }
    const bomb = await runaway(runner, 'memory-bomb', { timeoutMs: 5000, memoryMb: 64 });
    console.log(`memory-bomb at a 64 MiB cap: fault ${bomb.fault} after ${bomb.elapsedMs.toFixed(1)} ms, max event-loop lag ${bomb.maxLagMs.toFixed(1)} ms`);
    const capped = await runaway(runner, 'memory-bomb-capped', { timeoutMs: 5000 });
    console.log(`memory-bomb-capped (16 MiB max): fault ${capped.fault} after ${capped.elapsedMs.toFixed(1)} ms, max event-loop lag ${capped.maxLagMs.toFixed(1)} ms`);
  } finally {
    await runner.close();
  }
}

await main();
