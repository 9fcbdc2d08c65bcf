/**
 * Payload scaling: post-tool calls whose tool output is 1 KiB … 4 MiB,
 * through the runner (the path a session takes), for a hook that does no
 * policy work and for secret-redactor (which scans the whole output). The
 * content is realistic text (an `ls -l` listing, flat strings, no secrets),
 * so every call is accepted (a decision or no opinion). Reports p50, ns per byte and the 4 MiB ÷
 * 1 MiB ratio (linear = 4), from the same number of calls at every size.
 */
import { performance } from 'node:perf_hooks';
import { invokeListener } from '../host/events/invoke.ts';
import type { HookRunner } from '../host/runner/index.ts';
import type { PostToolDecision, PostToolPayload } from '../host/seams/index.ts';
import { SESSION, type BenchHook } from './fixtures.ts';
import { type Summary, summarize } from './harness.ts';

export const PAYLOAD_SIZES = [1024, 10 * 1024, 100 * 1024, 1024 * 1024, 4 * 1024 * 1024] as const;

export interface PayloadRow {
  readonly hook: string;
  readonly bytes: number;
  readonly summary: Summary;
  /** p50 ÷ content bytes, in ns. */
  readonly nsPerByte: number;
  /** Process CPU time per call (all threads), p50, µs. */
  readonly cpuP50Us: number;
}

const LINE = '-rw-r--r--  1 dev  staff   48213 Dec  1 06:48 src/generated/routes-and-handlers.ts\n';

/** Tool output of exactly `bytes` bytes (ASCII), built as one flat string. */
export function toolOutput(bytes: number): string {
  return Array.from({ length: Math.ceil(bytes / LINE.length) }, () => LINE).join('').slice(0, bytes);
}

/**
 * Timed calls per size, and the rounds they are split into. Every size gets
 * the same count: with 12 calls at 1 MiB and 6 at 4 MiB, one burst of load
 * from another process moved the 4 MiB ÷ 1 MiB ratio between ~2.5× and ~6×
 * from run to run. Many short rounds: the whole no-policy section takes
 * about a second, so 4 rounds of 10 changed size only every ~40 ms and a
 * burst of load could still land on one size's block.
 */
const SAMPLES = 60;
const ROUNDS = 20;

/**
 * Times post-tool calls of every size through each hook. The sizes take
 * turns in rounds (a block of calls per size, then the next size, then the
 * next round), so a burst of load lands on every size of a ratio, not on one;
 * each block starts with an untimed call, so a block measures calls at its
 * own size, not the switch from the size before.
 */
export async function measurePayloads(runner: HookRunner, hooks: readonly BenchHook[], options: { quick: boolean; timeoutMs: number; onProgress: (message: string) => void }): Promise<PayloadRow[]> {
  const rows: PayloadRow[] = [];
  const rounds = options.quick ? 10 : ROUNDS;
  const perBlock = Math.ceil((options.quick ? Math.round(SAMPLES / 3) : SAMPLES) / rounds);
  for (const bench of hooks) {
    options.onProgress(`payload: ${bench.name}, post-tool output 1 KiB … 4 MiB, ${rounds} rounds of ${perBlock} calls per size`);
    const hook = await runner.load({ name: bench.name, wasm: bench.bytes, limits: { timeoutMs: Math.max(options.timeoutMs, 5000) } });
    try {
      const sizes = PAYLOAD_SIZES.map((bytes) => {
        const payload: PostToolPayload = {
          toolCallId: 'call_payload',
          toolName: 'bash',
          arguments: { command: 'ls -l src/generated' },
          result: { content: toolOutput(bytes), isError: false },
        };
        const call = () => invokeListener(hook, 'tools/post-execute', payload, { action: 'accept' } as PostToolDecision, SESSION);
        return { bytes, call, wall: [] as number[], cpu: [] as number[] };
      });
      for (let round = 0; round < rounds; round++) {
        for (const size of sizes) {
          const first = await size.call();
          // No opinion (null) leaves the call accepted, as secret-redactor does when there is nothing to redact.
          if (first.invocation.outcome === 'fault' || (first.decision !== null && (first.decision as PostToolDecision).action !== 'accept')) {
            throw new Error(`payload row ${bench.name} at ${size.bytes} B decided ${JSON.stringify(first.invocation)}, expected accept`);
          }
          for (let i = 0; i < perBlock; i++) {
            const usage = process.cpuUsage();
            const started = performance.now();
            await size.call();
            size.wall.push(performance.now() - started);
            const spent = process.cpuUsage(usage);
            size.cpu.push((spent.user + spent.system) / 1000);
          }
        }
      }
      for (const { bytes, wall, cpu } of sizes) {
        const summary = summarize(wall);
        rows.push({ hook: bench.name, bytes, summary, nsPerByte: (summary.p50Us * 1000) / bytes, cpuP50Us: summarize(cpu).p50Us });
      }
    } finally {
      await hook.close();
    }
  }
  return rows;
}
