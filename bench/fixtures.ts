/**
 * What every row of the bench works on: one realistic ~2.3 KB pre-tool call
 * for the `bash` tool (an agent writing a file through a heredoc, then
 * formatting and testing), the guard-bash policy that every row applies to
 * it, and the hooks under test (guard-bash compiled by the project's own
 * build, a bench-only allow hook, and a WAT hook with no policy at all).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { EXAMPLES_DIR, buildExample } from '../examples-hooks/build.ts';
import { checkBashArguments } from '../examples-hooks/guard-bash/policy.ts';
import type { PreToolDecision, PreToolPayload, SessionInfo } from '../host/seams/index.ts';
import { compileWatSource } from '../tests/helpers/wat.ts';
import { extismModule } from '../tests/helpers/wat-module.ts';

export const SESSION: SessionInfo = { id: 'bench-session', turn: 3, step: 2, cwd: '/workspace/app' };
export const NEXT: PreToolDecision = { action: 'allow' };

/** The decision every row must reach on {@link PAYLOAD}. */
export const EXPECTED_ACTION = 'allow';

function heredocBody(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < bytes; i++) {
    lines.push(`export const route${i} = { path: '/api/v1/items/${i}', method: 'GET', handler: (req: Request) => fetchItem(req, ${i}) };`);
  }
  return lines.join('\n');
}

/** A bash call as a coding agent sends it: ~2.3 KB of JSON, a command the policy must lex end to end. */
export const PAYLOAD: PreToolPayload = {
  toolCallId: 'call_01J9ZK3Q8V',
  toolName: 'bash',
  arguments: {
    command:
      `cd /workspace/app && mkdir -p src/generated && cat > src/generated/routes.ts <<'EOF'\n${heredocBody(1850)}\nEOF\n` +
      'npx prettier --write src/generated/routes.ts && git add -A && git status --short | head -20 && npm test -- --reporter=dot 2>&1 | tail -30',
    timeoutMs: 120_000,
    description: 'Generate the API routes file, format it and run the tests',
  },
};

/** The pre-tool decision guard-bash's hook returns, computed in-process by its pure policy. */
export function guardDecision(payload: PreToolPayload, cwd: string): PreToolDecision {
  if (payload.toolName !== 'bash') return { action: 'allow' };
  const verdict = checkBashArguments(payload.arguments, { cwd, denyPatterns: [] });
  if (verdict.action === 'deny') return { action: 'deny', reason: verdict.reason };
  if (verdict.action === 'ask') return { action: 'ask', reason: verdict.reason };
  return { action: 'allow' };
}

/** A WAT hook that reads every input byte (8 at a time), then outputs `{"action":"allow"}`: the runner's own floor. */
export const READ_ALL_THEN_ALLOW_WAT = extismModule(`(data (i32.const 0) "\\81\\a6action\\a5allow")
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
    (i32.const 0))`, { memory: '1 16' });

/** A hook under test: its bytes and where they came from. */
export interface BenchHook {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly path: string | undefined;
}

/** guard-bash, built from source by the project's build (reused when up to date). */
export async function loadGuardBash(onProgress: (message: string) => void): Promise<BenchHook> {
  const built = await buildExample('guard-bash', onProgress);
  return { name: 'guard-bash', bytes: new Uint8Array(await readFile(built.wasmPath)), path: built.wasmPath };
}

export async function loadWatAllow(): Promise<BenchHook> {
  return { name: 'wat-allow', bytes: await compileWatSource(READ_ALL_THEN_ALLOW_WAT, 'read-all-then-allow.wat'), path: undefined };
}

/** guard-bash's TypeScript entry (for the build-time figure). */
export const GUARD_BASH_ENTRY = join(EXAMPLES_DIR, 'guard-bash', 'hook.ts');

/** Entry of the bench's PDK allow hook (see `fixtures/allow-hook.ts`). */
export const ALLOW_HOOK_ENTRY = fileURLToPath(new URL('./fixtures/allow-hook.ts', import.meta.url));

/**
 * Appends an empty custom section named after `nonce`: same code, new bytes,
 * so neither the runner's module cache nor V8's native-module cache can
 * serve a "from bytes" cold start.
 */
export function withNonce(bytes: Uint8Array, nonce: number): Uint8Array {
  const name = new TextEncoder().encode(`hookbox-bench-${nonce}`);
  const body = [name.length, ...name];
  const out = new Uint8Array(bytes.length + 2 + body.length);
  out.set(bytes, 0);
  out[bytes.length] = 0; // custom section id
  out[bytes.length + 1] = body.length; // < 128: one-byte LEB128
  out.set(body, bytes.length + 2);
  return out;
}

/** The bench payload as Claude Code's PreToolUse hook JSON (what the per-event clients and `hookbox serve` are sent). */
export function hookJson(sessionId: string, n: number): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: '/tmp/transcript.jsonl',
    cwd: SESSION.cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: PAYLOAD.arguments.command, description: 'bench' },
    tool_use_id: `toolu_bench_${n}`,
  });
}
