/**
 * The hook model hookbox replaces: a Claude Code-style command hook, one
 * process spawned per call, the call as JSON on stdin, the decision as JSON
 * on stdout. Both scripts apply a crude version of guard-bash's policy
 * (substring / regex checks for `rm -rf /`, `mkfs`, force push, curl-to-sh;
 * ask on `git push`; else allow), reach the same `allow` on the bench
 * payload, and their output goes through the same zod decision schema as a
 * wasm hook's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PreToolDecision, type PreToolPayload, type SessionInfo, seamDefinition } from '../host/seams/index.ts';

/**
 * `sh -c` with the policy in shell builtins only (`read`, `case`, `printf`):
 * no other process is started, so this is the cheapest honest shell hook.
 */
export const SH_POLICY = `IFS= read -r input
case "$input" in
  *'rm -rf /'*|*'rm -rf ~'*|*mkfs*|*'git push --force'*|*'git push -f'*|*'| sh'*|*'| bash'*)
    printf '%s\\n' '{"action":"deny","reason":"crude guard: destructive command"}' ;;
  *'git push'*) printf '%s\\n' '{"action":"ask","reason":"crude guard: git push"}' ;;
  *) printf '%s\\n' '{"action":"allow"}' ;;
esac`;

/** The same policy as a node script (what a hook author writing JS would ship). */
export const NODE_POLICY = `let raw = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const command = String(input.tool_input?.command ?? '');
  let decision = { action: 'allow' };
  if (/rm\\s+-rf\\s+[\\/~]|\\bmkfs|git\\s+push\\s+(--force|-f)\\b|\\|\\s*(ba)?sh\\b/.test(command)) {
    decision = { action: 'deny', reason: 'crude guard: destructive command' };
  } else if (/git\\s+push/.test(command)) {
    decision = { action: 'ask', reason: 'crude guard: git push' };
  }
  process.stdout.write(JSON.stringify(decision) + '\\n');
});
`;

/** A process-per-call hook ready to time. */
export interface ShellHook {
  call(payload: PreToolPayload, session: SessionInfo): Promise<PreToolDecision>;
  close(): Promise<void>;
}

/** The hook input as Claude Code sends it to a PreToolUse command hook (one JSON line). */
function hookInput(payload: PreToolPayload, session: SessionInfo): string {
  return `${JSON.stringify({
    session_id: session.id,
    transcript_path: '/tmp/transcript.jsonl',
    cwd: session.cwd,
    hook_event_name: 'PreToolUse',
    tool_name: payload.toolName,
    tool_input: payload.arguments,
  })}\n`;
}

// Children get a minimal environment: no NODE_OPTIONS from tsx, so `node` starts as a user's would.
const CHILD_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C' };

function run(command: string, args: readonly string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: CHILD_ENV });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new Error(`${command} exited with ${code}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

function decide(stdout: string): PreToolDecision {
  const parsed = seamDefinition('tools/pre-execute').decision.safeParse(JSON.parse(stdout));
  if (!parsed.success) throw new Error(`shell hook answered an invalid decision: ${stdout.trim()}`);
  return parsed.data;
}

/** `sh -c '<policy>'` per call. */
export function shHook(): ShellHook {
  return {
    call: async (payload, session) => decide(await run('/bin/sh', ['-c', SH_POLICY], hookInput(payload, session))),
    close: async () => {},
  };
}

/** `node guard.mjs` per call (the script is written to a temp dir). */
export async function nodeHook(): Promise<ShellHook> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-'));
  const script = join(dir, 'guard.mjs');
  await writeFile(script, NODE_POLICY);
  return {
    call: async (payload, session) => decide(await run(process.execPath, [script], hookInput(payload, session))),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
