/**
 * Shared helpers for the security specs: one runner per spec file, a call
 * that goes through the bus's fault policy (`invokeListener`), and an
 * event-loop probe that proves the host keeps ticking during a runaway call.
 */
import { invokeListener } from '../../host/events/invoke.ts';
import type { HookInvocation } from '../../host/events/index.ts';
import { HookRunner, type HookLogEntry, type WasmHook, type WasmHookSpec } from '../../host/runner/index.ts';
import { type PayloadOf, type SeamId, type SessionInfo, seamDefinition } from '../../host/seams/index.ts';
import { compileWat } from '../helpers/wat.ts';

export const SESSION: SessionInfo = { id: 'security-session', turn: 1, step: 1, cwd: '/workspace' };

export const PAYLOADS: { [S in SeamId]: PayloadOf<S> } = {
  'agent/session-start': { source: 'startup' },
  'agent/prompt-submit': { content: 'hello', source: 'cli' },
  'tools/pre-execute': { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls -la' } },
  'tools/post-execute': { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, result: { content: 'ok', isError: false } },
  'agent/turn-continuation': { continuations: 0, lastAssistantText: 'done' },
  'tools/permission-request': { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm install' } },
  'agent/subagent-start': { agentId: 'a1', agentType: 'general-purpose' },
  'agent/subagent-stop': { agentId: 'a1', agentType: 'general-purpose', continuations: 0, lastAssistantText: 'done' },
  'agent/notification': { kind: 'idle', message: 'waiting for input' },
  'agent/pre-compact': { trigger: 'auto' },
  'agent/session-end': { reason: 'exit' },
};

export interface SeamResult {
  /** What the seam takes from the hook after the fault policy (`null` = no opinion). */
  readonly decision: unknown;
  readonly invocation: HookInvocation;
  readonly fault: HookInvocation['fault'];
}

/** Calls one seam of a hook the way the bus does, with the seam's default `next`. */
export async function callSeam<S extends SeamId>(hook: WasmHook, seam: S, session: SessionInfo = SESSION): Promise<SeamResult> {
  const definition = seamDefinition(seam);
  const payload = PAYLOADS[seam] as PayloadOf<S>;
  const next = definition.kind === 'notify' ? null : definition.defaultDecision(payload);
  const applied = await invokeListener(hook, seam, payload, next, session);
  return { decision: applied.decision, invocation: applied.invocation, fault: applied.invocation.fault };
}

/** Loads a corpus plugin by name (bytes compiled from its WAT). */
export async function loadCorpus(runner: HookRunner, name: string, spec: Partial<WasmHookSpec> = {}): Promise<WasmHook> {
  return runner.load({ name, wasm: await compileWat(name), ...spec });
}

/** Counts event-loop ticks (a 1 ms interval) while `work` runs. */
export async function ticking<T>(work: () => Promise<T>): Promise<{ value: T; ticks: number; elapsedMs: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  try {
    const value = await work();
    return { value, ticks, elapsedMs: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** A runner plus the healthy `allow` hook, for "the next healthy call still works". */
export interface Fixture {
  runner: HookRunner;
  healthy: WasmHook;
  logs: HookLogEntry[];
}

export async function openFixture(): Promise<Fixture> {
  const logs: HookLogEntry[] = [];
  const runner = await HookRunner.start({ onLog: (entry) => logs.push(entry) });
  try {
    const healthy = await loadCorpus(runner, 'allow');
    return { runner, healthy, logs };
  } catch (error) {
    await runner.close();
    throw error;
  }
}

/** Asserts-by-value helper: the healthy hook's pre-tool decision right now. */
export async function healthyDecision(fixture: Fixture): Promise<unknown> {
  return (await callSeam(fixture.healthy, 'tools/pre-execute')).decision;
}
