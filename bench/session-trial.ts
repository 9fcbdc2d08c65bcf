/**
 * One trial of the bench's session section, run in a fresh process (the
 * parent spawns it once per hook per trial): start a runner, load one hook,
 * open a new session, then make `--calls` pre-tool decisions through a
 * `SeamBus`, `--gap-ms` apart, as a real session does (a model call between
 * two tool calls), and finally the same decision back to back (`--hot`
 * times) for the hot p50 beside it. Prints one JSON object on stdout.
 *
 *   npx tsx bench/session-trial.ts --wasm hook.wasm --name guard-bash --gap-ms 1000 --calls 20 --hot 300 [--variant tuned|cold]
 *
 * `--variant floor` (no `--wasm`) times the host's own main-thread codec of
 * one decision instead (the envelope encode, the reply decode and its zod
 * check, as `WasmHook.invoke` does them), with no runner, no worker and no
 * wasm: the same spaced/hot shape applied to code that only this process
 * runs, which shows what idling between calls costs on this machine.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SeamBus } from '../host/events/index.ts';
import { HookRunner } from '../host/runner/index.ts';
import { releaseInput } from '../host/runner/input-lease.ts';
import { decodeDecision, encodeEnvelope } from '../host/runner/wire.ts';
import { pack } from 'msgpackr';
import { EXPECTED_ACTION, NEXT, PAYLOAD, SESSION } from './fixtures.ts';

/** What one trial prints. Times in µs, from the start of `bus.dispatch` to its result. */
export interface SessionTrialResult {
  readonly hook: string;
  readonly variant: string;
  /** Runner start + load, in ms (what a process pays before the session opens). */
  readonly startupMs: number;
  /** Every spaced call in order; the first is the session's first call. */
  readonly callsUs: readonly number[];
  /**
   * Process CPU time (every thread: main, worker, V8's compiler threads) over
   * each spaced call, in µs: what the call cost in work, which a loaded
   * machine's scheduling delays do not inflate the way they inflate wall time.
   */
  readonly callsCpuUs: readonly number[];
  readonly hotUs: readonly number[];
}

function arg(name: string, fallback?: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : fallback;
  if (value === undefined) throw new Error(`session-trial: --${name} is required`);
  return value;
}

const cpuUs = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** `calls` decisions `gapMs` apart, then `hot` back to back: the trial's figures. */
async function timeDecisions(decide: () => Promise<number>, options: { gapMs: number; calls: number; hot: number }) {
  const callsUs: number[] = [];
  const callsCpuUs: number[] = [];
  for (let i = 0; i < options.calls; i++) {
    await sleep(options.gapMs);
    const cpu = cpuUs();
    callsUs.push(await decide());
    callsCpuUs.push(cpuUs() - cpu);
  }
  const hotUs: number[] = [];
  for (let i = 0; i < options.hot; i++) hotUs.push(await decide());
  return { callsUs, callsCpuUs, hotUs };
}

/** The host codec of one pre-tool decision, on this thread only (see the file's comment). */
async function floorTrial(options: { gapMs: number; calls: number; hot: number }): Promise<SessionTrialResult> {
  const t0 = performance.now();
  const answer = pack({ action: EXPECTED_ACTION });
  const decide = async (): Promise<number> => {
    const started = performance.now();
    const input = encodeEnvelope('tools/pre-execute', SESSION, PAYLOAD, NEXT);
    releaseInput(input);
    const outcome = decodeDecision('tools/pre-execute', answer);
    const us = (performance.now() - started) * 1000;
    if (outcome.type !== 'decision' || outcome.decision.action !== EXPECTED_ACTION) throw new Error(`host codec decided ${JSON.stringify(outcome)}`);
    return us;
  };
  // As warm as the runner's own warm-up leaves the host path (WARM_UP_HOST_CALLS).
  for (let i = 0; i < 1000; i++) await decide();
  const startupMs = performance.now() - t0;
  return { hook: 'host codec (no hook)', variant: 'floor', startupMs, ...(await timeDecisions(decide, options)) };
}

async function main(): Promise<void> {
  const gapMs = Number(arg('gap-ms', '1000'));
  const calls = Number(arg('calls', '20'));
  const hot = Number(arg('hot', '300'));
  // `cold`: the runner as it was before warm-up and session preparation (the parent also passes
  // --wasm-lazy-compilation to node for it), for a before/after side by side in one run.
  const variant = arg('variant', 'tuned');
  if (variant === 'floor') {
    process.stdout.write(`${JSON.stringify(await floorTrial({ gapMs, calls, hot }))}\n`);
    return;
  }
  const wasm = arg('wasm');
  const name = arg('name');
  const tuned = variant === 'tuned';
  const t0 = performance.now();
  const runner = await HookRunner.start({ warmUp: tuned });
  try {
    // A generous deadline: this measures latency on a possibly loaded machine, not the limits.
    const hook = await runner.load({ name, wasm, limits: { timeoutMs: 10_000 } });
    const bus = new SeamBus();
    bus.use(hook);
    const startupMs = performance.now() - t0;
    const session = { ...SESSION, id: `trial-${process.pid}` };
    // The session opens; its first tool call comes after a model call.
    if (tuned) bus.sessionStarted(session);
    const decide = async (): Promise<number> => {
      const started = performance.now();
      const { decision } = await bus.dispatch('tools/pre-execute', PAYLOAD, session, NEXT);
      const us = (performance.now() - started) * 1000;
      if (decision.action !== EXPECTED_ACTION) throw new Error(`${name} decided ${JSON.stringify(decision)}, expected ${EXPECTED_ACTION}`);
      return us;
    };
    const result: SessionTrialResult = { hook: name, variant, startupMs, ...(await timeDecisions(decide, { gapMs, calls, hot })) };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await runner.close();
  }
}

await main();
