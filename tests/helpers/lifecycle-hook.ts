/**
 * The lifecycle seams (#51) inside the real agents: an operator config whose
 * one hook is a real wasm plugin answering each lifecycle export with a
 * planted decision (`wat-fixed-answers.ts`), served by `hookbox serve`, and
 * what a project's session logs say that hook was asked.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionLog } from '../../host/log/index.ts';
import { type RunningServer, startHookboxServer } from './real-agents.ts';
import { writeFixedAnswersWasm } from './wat-fixed-answers.ts';

/** The hook's name in the config and the session logs. */
export const LIFECYCLE_HOOK = 'lifecycle';

/** The lifecycle seams and each one's wasm export. */
const EXPORTS = {
  'agent/session-end': 'session_end',
  'agent/pre-compact': 'pre_compact',
  'agent/subagent-start': 'subagent_start',
  'agent/subagent-stop': 'subagent_stop',
  'tools/permission-request': 'permission_request',
  'agent/notification': 'notification',
} as const;

/** A lifecycle seam. */
export type LifecycleSeamId = keyof typeof EXPORTS;

/**
 * Writes `<dir>/lifecycle.config.json` (the wasm beside it) whose hook
 * answers each seam of `answers` with its decision, and starts `hookbox
 * serve` on it in `<dir>/serve`.
 */
export async function serveLifecycleHook(dir: string, answers: Partial<Record<LifecycleSeamId, unknown>>): Promise<{ config: string; server: RunningServer }> {
  mkdirSync(dir, { recursive: true });
  const byExport = Object.fromEntries(Object.entries(answers).map(([seam, decision]) => [EXPORTS[seam as LifecycleSeamId], decision]));
  const wasm = await writeFixedAnswersWasm(dir, LIFECYCLE_HOOK, byExport);
  const config = join(dir, 'lifecycle.config.json');
  writeFileSync(config, `${JSON.stringify({ hooks: [{ name: LIFECYCLE_HOOK, wasm, seams: Object.keys(answers), timeoutMs: 5000 }] }, null, 2)}\n`);
  const serveDir = join(dir, 'serve');
  mkdirSync(serveDir, { mode: 0o700 });
  return { config, server: await startHookboxServer(config, serveDir) };
}

/** Every call of the lifecycle hook the project's session logs record, run in the wasm sandbox: its seam and decision. */
export function lifecycleCalls(project: string): { seam: string; decision: unknown }[] {
  const dir = join(project, '.hookbox', 'sessions');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readSessionLog(join(dir, name)).events)
    .flatMap((event) => (event.type === 'hook/invoke' && event.hook === LIFECYCLE_HOOK && event.sandbox === 'wasm' ? [{ seam: event.seam, decision: event.decision }] : []));
}
