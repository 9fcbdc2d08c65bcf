/**
 * Payload scaling: post-tool calls whose tool output is 1 KiB … 4 MiB,
 * through the runner (the path a session takes), for a hook that does no
 * policy work and for secret-redactor (which scans the whole output). The
 * content is realistic text (an `ls -l` listing, flat strings, no secrets),
 * so every call is accepted (a decision or no opinion). Reports p50, ns per byte and the 4 MiB ÷
 * 1 MiB ratio (linear = 4).
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

function samplesFor(bytes: number, quick: boolean): number {
  const base = bytes <= 100 * 1024 ? 40 : bytes <= 1024 * 1024 ? 12 : 6;
  return quick ? Math.max(3, Math.round(base / 3)) : base;
}

/** Times post-tool calls of every size through each hook (sizes interleaved per round of samples). */
export async function measurePayloads(runner: HookRunner, hooks: readonly BenchHook[], options: { quick: boolean; timeoutMs: number; onProgress: (message: string) => void }): Promise<PayloadRow[]> {
  const rows: PayloadRow[] = [];
  for (const bench of hooks) {
    options.onProgress(`payload: ${bench.name}, post-tool output 1 KiB … 4 MiB`);
    const hook = await runner.load({ name: bench.name, wasm: bench.bytes, limits: { timeoutMs: Math.max(options.timeoutMs, 5000) } });
    try {
      for (const bytes of PAYLOAD_SIZES) {
        const payload: PostToolPayload = {
          toolCallId: 'call_payload',
          toolName: 'bash',
          arguments: { command: 'ls -l src/generated' },
          result: { content: toolOutput(bytes), isError: false },
        };
        const call = () => invokeListener(hook, 'tools/post-execute', payload, { action: 'accept' } as PostToolDecision, SESSION);
        const first = await call();
        // No opinion (null) leaves the call accepted, as secret-redactor does when there is nothing to redact.
        if (first.invocation.outcome === 'fault' || (first.decision !== null && (first.decision as PostToolDecision).action !== 'accept')) {
          throw new Error(`payload row ${bench.name} at ${bytes} B decided ${JSON.stringify(first.invocation)}, expected accept`);
        }
        const wall: number[] = [];
        const cpu: number[] = [];
        for (let i = 0; i < samplesFor(bytes, options.quick); i++) {
          const usage = process.cpuUsage();
          const started = performance.now();
          await call();
          wall.push(performance.now() - started);
          const spent = process.cpuUsage(usage);
          cpu.push((spent.user + spent.system) / 1000);
        }
        const summary = summarize(wall);
        rows.push({ hook: bench.name, bytes, summary, nsPerByte: (summary.p50Us * 1000) / bytes, cpuP50Us: summarize(cpu).p50Us });
      }
    } finally {
      await hook.close();
    }
  }
  return rows;
}
