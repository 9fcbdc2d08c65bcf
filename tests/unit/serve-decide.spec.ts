/**
 * `decideAgentEvent` for a Codex `apply_patch` that touches several files:
 * each file is its own tools/pre-execute call, and the answer is the
 * strictest file's decision, wherever that file sits in the patch. A real
 * SeamBus with a native hook, a real session table and session log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexBridge } from '../../host/agents/index.ts';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import { SessionTable, decideAgentEvent } from '../../host/serve/index.ts';

const codex = codexBridge;
const CWD = '/work/project';
const turn = {
  session_id: '01a23041-b8e2-7e41-8317-a22b12890507',
  transcript_path: '/home/u/.codex/sessions/2026/12/01/rollout.jsonl',
  cwd: CWD,
  model: 'gpt-5.5',
  permission_mode: 'bypassPermissions',
  turn_id: '01a23041-b98b-75b2-9b42-a196958d454a',
};

/** An apply_patch that adds each of `files` with one line. */
function applyPatch(files: readonly string[], id: string): unknown {
  const body = files.map((file) => `*** Add File: ${file}\n+line of ${file}\n`).join('');
  return { ...turn, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: `*** Begin Patch\n${body}*** End Patch\n` }, tool_use_id: id };
}

let logDir: string;
let sessions: SessionTable;
let seen: string[];
let bus: SeamBus;

beforeEach(() => {
  logDir = mkdtempSync(path.join(tmpdir(), 'hookbox-decide-'));
  sessions = new SessionTable({ maxSessions: 4, idleMs: 60_000, logDir });
  seen = [];
  bus = new SeamBus();
  // Denies writes to .env, asks for anything under secrets/, has no opinion otherwise.
  bus.use(
    nativeHook({
      name: 'paths',
      handlers: {
        'tools/pre-execute': (payload) => {
          const file = String((payload.arguments as { path?: unknown }).path);
          seen.push(file);
          if (path.basename(file) === '.env') return { action: 'deny', reason: `no writes to ${file}` };
          if (file.startsWith('secrets/')) return { action: 'ask', reason: `review ${file}` };
          return NO_OPINION;
        },
      },
    }),
  );
});
afterEach(() => {
  sessions.closeAll();
  rmSync(logDir, { recursive: true, force: true });
});

const decide = (input: unknown) => decideAgentEvent(codex, input, { bus, sessions, maxContinuations: 3 });

describe('a Codex apply_patch over several files is answered with the strictest file', () => {
  it('the denied file last: deny, every file decided', async () => {
    const decided = await decide(applyPatch(['notes.md', 'src/a.ts', '.env'], 'call_1_0'));
    expect(seen).toEqual(['notes.md', 'src/a.ts', '.env']);
    expect(decided.decision).toBe('deny');
    expect(`${decided.answer.stdout}${decided.answer.stderr}`).toContain('no writes to .env');
  });

  it('the denied file first, an asked one after it: still deny (not downgraded to ask)', async () => {
    const decided = await decide(applyPatch(['.env', 'secrets/key.pem', 'notes.md'], 'call_2_0'));
    expect(decided.decision).toBe('deny');
    expect(`${decided.answer.stdout}${decided.answer.stderr}`).toContain('no writes to .env');
  });

  it('an asked file in the middle, the rest allowed: ask; all allowed: allow', async () => {
    expect((await decide(applyPatch(['notes.md', 'secrets/key.pem', 'b.md'], 'call_3_0'))).decision).toBe('ask');
    const allowed = await decide(applyPatch(['notes.md', 'b.md'], 'call_4_0'));
    expect(allowed.decision).toBe('allow');
    expect(`${allowed.answer.stdout}${allowed.answer.stderr}`).not.toContain('no writes');
  });
});
