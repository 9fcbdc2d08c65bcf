/**
 * The shell-hook listener (host/bridges/shell-hook.ts) beyond the protocol
 * round trip of bridges-shell.spec.ts: what the hook is (its shape, the
 * audit's `sandbox` and `digest`), the environment a command gets (entry env,
 * the session's exports, `CLAUDE_PROJECT_DIR`, and `CLAUDE_ENV_FILE` for a
 * Claude Code SessionStart hook, read back as data), the faults and their
 * texts (a program that cannot run, announced once; timeout; output cap, its
 * default; signal; a shell that cannot start; a close), `systemMessage`
 * notices, `transcript_path` from the attached session, `sources`, and the
 * program check. Real `sh` children throughout.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SHELL_OUTPUT_BYTES,
  SessionExports,
  type ShellHook,
  type ShellHookOptions,
  type ShellHookSession,
  isShellHook,
  protocolInput,
  shellHook,
} from '../../host/bridges/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import type { SeamListener } from '../../host/events/index.ts';
import type { PayloadOf, SeamId, SessionInfo } from '../../host/seams/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';
import { waitFor } from '../helpers/wait-for.ts';

type Notice = [hook: string, level: 'info' | 'warn' | 'error', message: string, sessionId: string];

/** A session as `hookbox run` attaches one: real per-session exports; notices recorded. */
class RecordingSession implements ShellHookSession {
  readonly notices: Notice[] = [];
  readonly exports = new SessionExports();
  constructor(private readonly transcript: (sessionId: string) => string | undefined = () => undefined) {}
  transcriptPath(sessionId: string): string | undefined {
    return this.transcript(sessionId);
  }
  notice(hook: string, level: Notice[1], message: string, sessionId: string): void {
    this.notices.push([hook, level, message, sessionId]);
  }
  exported(sessionId: string): Readonly<Record<string, string>> {
    return this.exports.get(sessionId);
  }
  export(sessionId: string, vars: Readonly<Record<string, string>>): void {
    this.exports.add(sessionId, vars);
  }
}

let workspace: TestWorkspace;
let session: SessionInfo;
let recorder: RecordingSession;
let hooks: ShellHook[];
beforeEach(() => {
  workspace = makeWorkspace('hookbox-shell-hook-unit-');
  session = { id: 'sess-1', turn: 1, step: 1, cwd: workspace.dir };
  recorder = new RecordingSession();
  hooks = [];
});
afterEach(async () => {
  for (const hook of hooks) await hook.close();
  workspace.dispose();
});

/** A shell hook attached to the recording session (closed after the test). */
function hook(command: string, options: Partial<ShellHookOptions> = {}): ShellHook {
  const made = shellHook({ name: 'guard', command, protocol: 'claude-code', seams: ['tools/pre-execute'], ...options });
  made.attach(recorder);
  hooks.push(made);
  return made;
}

const preTool: PayloadOf<'tools/pre-execute'> = { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } };

function ask<S extends SeamId>(listener: ShellHook, seam: S, payload: PayloadOf<S>) {
  return listener.invoke({ seam, payload, next: null, session });
}
const pre = (listener: ShellHook) => ask(listener, 'tools/pre-execute', preTool);
const start = (listener: ShellHook, source: PayloadOf<'agent/session-start'>['source'] = 'startup') => ask(listener, 'agent/session-start', { source });
const file = (name: string): string => readFileSync(join(workspace.dir, name), 'utf8');
const loadFault = (message: string) => ({ type: 'fault', fault: { kind: 'load', message } });

describe('shellHook: what it is', () => {
  it('is an unsandboxed listener whose digest is the sha256 of its command; tools and failPolicy only when configured', () => {
    const command = './hooks/guard.sh --strict';
    const sha256 = createHash('sha256').update(command).digest('hex');
    const plain = shellHook({ name: 'guard', command, protocol: 'codex', seams: ['tools/pre-execute', 'tools/post-execute'] });
    expect({ ...plain }).toStrictEqual({
      name: 'guard',
      digest: sha256,
      sandbox: 'shell',
      command,
      protocol: 'codex',
      seams: ['tools/pre-execute', 'tools/post-execute'],
      exports: ['tools/pre-execute', 'tools/post-execute'],
      sha256,
      quarantined: false,
      invoke: expect.any(Function),
      checkPrograms: expect.any(Function),
      attach: expect.any(Function),
      reload: expect.any(Function),
      close: expect.any(Function),
    });
    const narrowed = shellHook({ name: 'guard', command, protocol: 'claude-code', seams: ['tools/pre-execute'], tools: ['bash'], failPolicy: 'open' });
    expect({ tools: narrowed.tools, failPolicy: narrowed.failPolicy }).toStrictEqual({ tools: ['bash'], failPolicy: 'open' });
  });

  it('isShellHook tells a shell hook from other listeners that say "shell"', () => {
    const invoke: SeamListener['invoke'] = async () => ({ type: 'no-opinion' });
    expect(isShellHook(shellHook({ name: 'guard', command: 'true', protocol: 'claude-code', seams: ['tools/pre-execute'] }))).toBe(true);
    expect(isShellHook({ name: 'claims', sandbox: 'shell', seams: ['tools/pre-execute'], invoke })).toBe(false);
    expect(isShellHook({ name: 'wasm', seams: ['tools/pre-execute'], invoke, attach: () => undefined } as SeamListener)).toBe(false);
  });

  it('the audit record says sandbox "shell" and carries the command digest', async () => {
    const command = 'cat > /dev/null';
    const { invocation, decision } = await invokeListener(hook(command), 'tools/pre-execute', preTool, { action: 'allow' }, session);
    expect(decision).toBeNull();
    expect(invocation).toStrictEqual({
      hook: 'guard',
      digest: createHash('sha256').update(command).digest('hex'),
      sandbox: 'shell',
      seam: 'tools/pre-execute',
      durationUs: expect.any(Number),
      outcome: 'no-opinion',
      applied: null,
    });
  });

  it('a fail-open hook that faults lets the call through', async () => {
    const { invocation, decision } = await invokeListener(hook('exit 1', { failPolicy: 'open' }), 'tools/pre-execute', preTool, { action: 'allow' }, session);
    expect(invocation.fault?.kind).toBe('plugin-error');
    expect(decision).toBeNull();
  });

  it('reload is a no-op: the next call runs as before', async () => {
    const guard = hook('echo "denied by guard" >&2; exit 2');
    await guard.reload();
    expect(await pre(guard)).toStrictEqual({ type: 'decision', decision: { action: 'deny', reason: 'denied by guard' } });
  });
});

describe('shellHook: the environment of the command', () => {
  it('inherits hookbox env, then the entry env, then this session\'s exports; CLAUDE_PROJECT_DIR is the session cwd; no CLAUDE_ENV_FILE outside SessionStart', async () => {
    recorder.exports.add('sess-1', { B: 'exported', C: 'exported' });
    recorder.exports.add('sess-2', { D: 'other session' });
    const guard = hook('printf "%s|%s|%s|%s|%s|%s|%s" "$A" "$B" "$C" "$D" "$CLAUDE_PROJECT_DIR" "$HOME" "${CLAUDE_ENV_FILE-none}" > env.txt', {
      env: { A: 'entry', B: 'entry', CLAUDE_PROJECT_DIR: '/elsewhere' },
    });
    expect(await pre(guard)).toStrictEqual({ type: 'no-opinion' });
    expect(file('env.txt')).toBe(`entry|exported|exported||${workspace.dir}|${process.env.HOME ?? ''}|${process.env.CLAUDE_ENV_FILE ?? 'none'}`);
  });

  it('a Claude Code SessionStart hook gets a fresh private CLAUDE_ENV_FILE; its exports are read as data, apply to later hooks, and the file is removed', async () => {
    const writer = hook(
      [
        'f="$CLAUDE_ENV_FILE"',
        'echo "$f" > envfile.path',
        'ls -l "$f" | cut -c1-10 > envfile.mode',
        'wc -c < "$f" | tr -d " " > envfile.size',
        `printf '%s\\n' 'export FOO=bar' 'export BIN="$CLAUDE_PROJECT_DIR/bin:$FOO"' 'export BAD=$(whoami)' >> "$f"`,
      ].join('; '),
      { seams: ['agent/session-start'] },
    );
    expect(await start(writer)).toStrictEqual({ type: 'no-opinion' });
    const envFile = file('envfile.path').trim();
    // In the system's temp dir, not the project the hook runs in.
    expect(envFile.startsWith(`${tmpdir()}/`)).toBe(true);
    expect(file('envfile.mode').trim()).toBe('-rw-------');
    expect(file('envfile.size').trim()).toBe('0');
    expect(existsSync(dirname(envFile))).toBe(false);
    expect(recorder.exports.get('sess-1')).toStrictEqual({ FOO: 'bar', BIN: `${workspace.dir}/bin:bar` });
    expect(recorder.notices).toStrictEqual([
      ['guard', 'warn', 'CLAUDE_ENV_FILE line 3: command substitution is not run (hookbox reads the file, it does not source it); not applied', 'sess-1'],
    ]);

    const later = hook('printf %s "$FOO|$BIN" > later.txt');
    await pre(later);
    expect(file('later.txt')).toBe(`bar|${workspace.dir}/bin:bar`);
  });

  it('a SessionStart hook that removes its CLAUDE_ENV_FILE (and its folder) exports nothing, and is not a fault', async () => {
    const remover = hook('echo "export FOO=bar" >> "$CLAUDE_ENV_FILE"; rm -r "$(dirname "$CLAUDE_ENV_FILE")"', { seams: ['agent/session-start'] });
    expect(await start(remover)).toStrictEqual({ type: 'no-opinion' });
    expect(recorder.exports.get('sess-1')).toStrictEqual({});
    expect(recorder.notices).toStrictEqual([]);
  });

  it('a Codex SessionStart hook gets no CLAUDE_ENV_FILE', async () => {
    const codex = hook('printf %s "${CLAUDE_ENV_FILE-none}"', { protocol: 'codex', seams: ['agent/session-start'] });
    expect(await start(codex)).toStrictEqual({ type: 'decision', decision: { additionalContext: process.env.CLAUDE_ENV_FILE ?? 'none' } });
  });

  it('transcript_path is the attached session\'s transcript for this session id; attach replaces the session', async () => {
    const guard = hook('cat > input.json');
    guard.attach(new RecordingSession((id) => `/logs/${id}.claude-transcript.jsonl`));
    await pre(guard);
    const call = { seam: 'tools/pre-execute' as const, payload: preTool, next: null, session };
    expect(JSON.parse(file('input.json'))).toStrictEqual(protocolInput('claude-code', call, '/logs/sess-1.claude-transcript.jsonl'));
  });
});

describe('shellHook: a program that cannot run', () => {
  const announcement = (message: string): string => `${message}; every call of this hook faults until it can run (install the program, or remove the hook)`;

  it('exit 127 is a load fault naming the program; it is announced once, and every call faults', async () => {
    const missing = hook('nosuch-prog-xyz --check 2>/dev/null');
    const message = "the hook's command cannot run (nosuch-prog-xyz: not found on PATH)";
    expect(await pre(missing)).toStrictEqual(loadFault(message));
    expect(await pre(missing)).toStrictEqual(loadFault(message));
    expect(recorder.notices).toStrictEqual([['guard', 'error', announcement(message), 'sess-1']]);
  });

  it('the program is named with the entry env expanded (exit 126 too)', async () => {
    const missing = hook('"$TOOLS/lint" 2>/dev/null; exit 126', { env: { TOOLS: join(workspace.dir, 'tools') } });
    expect(await pre(missing)).toStrictEqual(loadFault(`the hook's command cannot run (${workspace.dir}/tools/lint: no such file)`));
  });

  it('every program that is missing is named: a script\'s #! interpreter and the script an interpreter is given', async () => {
    mkdirSync(join(workspace.dir, 'tools'));
    writeFileSync(join(workspace.dir, 'tools', 'python3'), '#!/no/such/python\n');
    chmodSync(join(workspace.dir, 'tools', 'python3'), 0o755);
    const missing = hook('./tools/python3 hooks/x.py 2>/dev/null');
    expect(await pre(missing)).toStrictEqual(
      loadFault(
        `the hook's command cannot run (/no/such/python: no such file (the #! interpreter of ${workspace.dir}/tools/python3); hooks/x.py: no such file (the python3 script))`,
      ),
    );
  });

  it('exit 126 with only stderr: what the shell said, trimmed and cut at 500 characters; no stderr, nothing after the reason', async () => {
    expect(await pre(hook('echo "  not executable here  " >&2; exit 126'))).toStrictEqual(loadFault("the hook's command cannot run: not executable here"));
    expect(await pre(hook("printf '%0600d\\n' 0 >&2; exit 127"))).toStrictEqual(loadFault(`the hook's command cannot run: ${'0'.repeat(500)}`));
    expect(await pre(hook('exit 127'))).toStrictEqual(loadFault("the hook's command cannot run"));
  });

  it('another non-zero exit is the protocol\'s plugin-error, not a load fault, and announces nothing', async () => {
    expect(await pre(hook('exit 125'))).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(recorder.notices).toStrictEqual([]);
  });
});

describe('shellHook: faults and their texts', () => {
  it('a timeout kills the group: a timeout fault naming the limit', async () => {
    expect(await pre(hook('sleep 30', { timeoutMs: 300 }))).toStrictEqual({
      type: 'fault',
      fault: { kind: 'timeout', message: "no answer within 300 ms; the command's process group was killed" },
    });
  });

  it('output past the cap, on either stream, is output-too-large naming the stream', async () => {
    expect(await pre(hook('printf 12345', { maxOutputBytes: 4 }))).toStrictEqual({
      type: 'fault',
      fault: { kind: 'output-too-large', message: "stdout passed 4 bytes; the command's process group was killed" },
    });
    expect(await pre(hook('printf 12345 >&2; exit 2', { maxOutputBytes: 4 }))).toStrictEqual({
      type: 'fault',
      fault: { kind: 'output-too-large', message: "stderr passed 4 bytes; the command's process group was killed" },
    });
  });

  it('the default cap is 1 MiB per stream: exactly that passes, one byte more does not', async () => {
    expect(DEFAULT_SHELL_OUTPUT_BYTES).toBe(1_048_576);
    const bytes = (count: number): string => `cat > /dev/null; head -c ${count} /dev/zero | tr '\\0' a`;
    expect(await pre(hook(bytes(1_048_576)))).toStrictEqual({ type: 'no-opinion' });
    expect(await pre(hook(bytes(1_048_577)))).toStrictEqual({
      type: 'fault',
      fault: { kind: 'output-too-large', message: "stdout passed 1048576 bytes; the command's process group was killed" },
    });
  });

  it('killed by a signal is a plugin-error naming it, with stderr (if any but blanks) trimmed and cut at 2000 characters', async () => {
    expect(await pre(hook('kill -9 $$'))).toStrictEqual({ type: 'fault', fault: { kind: 'plugin-error', message: 'killed by SIGKILL' } });
    expect(await pre(hook('echo "   " >&2; kill -9 $$'))).toStrictEqual({ type: 'fault', fault: { kind: 'plugin-error', message: 'killed by SIGKILL' } });
    expect(await pre(hook("printf '  %02500d  \\n' 0 >&2; kill -TERM $$"))).toStrictEqual({
      type: 'fault',
      fault: { kind: 'plugin-error', message: `killed by SIGTERM: ${'0'.repeat(2000)}` },
    });
  });

  it('a shell that cannot start is a load fault naming the protocol', async () => {
    session = { ...session, cwd: join(workspace.dir, 'no-such-dir') };
    expect(await pre(hook('true', { protocol: 'codex' }))).toStrictEqual(loadFault('cannot start the Codex hook command: spawn sh ENOENT'));
    expect(await pre(hook('true'))).toStrictEqual(loadFault('cannot start the Claude Code hook command: spawn sh ENOENT'));
  });

  it('close() cancels a call in flight (a load fault); the hook runs again afterwards', async () => {
    const slow = hook('cat > /dev/null; touch started; sleep 30');
    const call = pre(slow);
    await waitFor(() => existsSync(join(workspace.dir, 'started')), 'the command to start', { everyMs: 20 });
    await slow.close();
    expect(await call).toStrictEqual(loadFault("the hook was closed during the call; the command's process group was killed"));
    const again = hook('cat > /dev/null; echo "still here" >&2; exit 2');
    await again.close();
    expect(await pre(again)).toStrictEqual({ type: 'decision', decision: { action: 'deny', reason: 'still here' } });
  });
});

describe('shellHook: notices, sources and the program check', () => {
  it('a systemMessage is a notice (info, trimmed) for this session, whatever the decision', async () => {
    const json = JSON.stringify({
      systemMessage: '  lint is slow today  ',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'lint failed' },
    });
    expect(await pre(hook(`cat > /dev/null; printf '%s' '${json}'`))).toStrictEqual({ type: 'decision', decision: { action: 'deny', reason: 'lint failed' } });
    expect(recorder.notices).toStrictEqual([['guard', 'info', 'lint is slow today', 'sess-1']]);
  });

  it('without sources a session-start hook runs for every source; sources do not narrow other seams', async () => {
    expect(await start(hook('echo hello', { seams: ['agent/session-start'] }), 'compact')).toStrictEqual({ type: 'decision', decision: { additionalContext: 'hello' } });
    const narrowed = hook('cat > /dev/null; echo "no" >&2; exit 2', { seams: ['tools/pre-execute', 'agent/session-start'], sources: ['resume'] });
    expect(await pre(narrowed)).toStrictEqual({ type: 'decision', decision: { action: 'deny', reason: 'no' } });
  });

  it('checkPrograms looks the program up for a session in cwd, with the entry env and CLAUDE_PROJECT_DIR = cwd', () => {
    const project = hook('"$CLAUDE_PROJECT_DIR"/hooks/guard.sh', { env: { CLAUDE_PROJECT_DIR: '/elsewhere' } });
    expect(project.checkPrograms(workspace.dir)).toStrictEqual({ missing: [{ program: `${workspace.dir}/hooks/guard.sh`, problem: 'no such file' }] });
    mkdirSync(join(workspace.dir, 'hooks'));
    writeFileSync(join(workspace.dir, 'hooks', 'guard.sh'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(workspace.dir, 'hooks', 'guard.sh'), 0o755);
    expect(project.checkPrograms(workspace.dir)).toStrictEqual({ missing: [] });
    const tools = hook('$TOOLS/bin/lint --fix', { env: { TOOLS: workspace.dir } });
    expect(tools.checkPrograms(workspace.dir)).toStrictEqual({ missing: [{ program: `${workspace.dir}/bin/lint`, problem: 'no such file' }] });
  });
});
