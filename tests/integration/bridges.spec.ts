import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadHookFile } from '../../host/config/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { type TestWorkspace, events, makeWorkspace, sequence } from '../helpers/session.ts';
import { extismModule } from '../helpers/wat-module.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-bridges-');
});
afterEach(() => workspace.dispose());

function hookbox(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: workspace.dir, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
}

function write(name: string, content: unknown, executable = false): string {
  const file = join(workspace.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  if (executable) chmodSync(file, 0o755);
  return file;
}

/** Real Claude Code hook scripts: plain sh, reading the hook JSON on stdin. */
function writeClaudeHooks(): void {
  mkdirSync(join(workspace.dir, 'hooks'));
  write('hooks/session.sh', `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"repo uses pnpm"}}'\n`, true);
  write('hooks/prompt.sh', `#!/bin/sh\ninput=$(cat)\ncase "$input" in *sk-*) echo "prompt contains a secret" >&2; exit 2;; esac\necho "reminder: run the tests"\n`, true);
  write('hooks/guard.sh', `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'rm -rf'*) echo "refusing rm -rf" >&2; exit 2;; esac\nexit 0\n`, true);
  write('hooks/post.sh', `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post: output checked"}}'\n`, true);
  write('hooks/stop.sh', `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests first"}';; esac\n`, true);
  write('.claude-settings.json', {
    hooks: {
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/session.sh' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: './hooks/prompt.sh', timeout: 10 }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/guard.sh', timeout: 10 }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/post.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: './hooks/stop.sh' }] }],
      PostCompact: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    },
  });
}

describe('hookbox import-claude, then hookbox run', () => {
  it('imports a settings file with all five events and runs real scripts through the seams, unsandboxed and marked so', () => {
    writeClaudeHooks();
    const imported = hookbox(['import-claude', '.claude-settings.json', '-o', 'hookbox.config.json']);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('Imported 5 Claude Code hook(s)');
    expect(imported.stdout).toContain('hooks.PostCompact: event PostCompact (1 matcher group(s)) — hookbox has no post-compact seam');
    expect(imported.stdout).toMatch(/UNSANDBOXED/);
    expect(imported.stdout).toMatch(/Fail closed/);
    expect(imported.stdout).toContain('600 s');

    const script = write('script.json', {
      steps: [
        { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf build' } }] },
        { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo hi' } }] },
        { text: 'done' },
        { text: 'tests pass' },
      ],
    });
    const run = hookbox(['run', '--config', 'hookbox.config.json', '--script', script, '--log', workspace.logPath, '--cwd', workspace.dir, 'deploy with sk-123', 'clean up']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('hook claude-pre-tool-use-1 [unsandboxed] tools/pre-execute deny — refusing rm -rf');

    const all = events(workspace);
    expect(sequence(all)).toEqual([
      'turn/start 1',
      'context/message 1 (session-start): repo uses pnpm',
      'prompt/blocked 1: prompt contains a secret',
      'turn/end 1 rejected steps=0',
      'turn/start 2',
      'user/message 2: clean up',
      'context/message 2 (prompt-submit): reminder: run the tests',
      'assistant/message 2.1:  [c1]',
      'tool/call 2.1 c1 bash',
      'tool/result 2.1 c1 error: Tool call denied by a hook: refusing rm -rf',
      'assistant/message 2.2:  [c2]',
      'tool/call 2.2 c2 bash',
      'tool/result 2.2 c2: hi\nexit code: 0',
      'context/message 2 (post-tool): post: output checked',
      'assistant/message 2.3: done',
      'steering/message 2: run the tests first',
      'assistant/message 2.4: tests pass',
      'turn/end 2 completed steps=4',
    ]);
    const invocations = all.filter((event) => event.type === 'hook/invoke');
    expect(invocations.length).toBeGreaterThanOrEqual(8);
    for (const invocation of invocations) expect(invocation).toMatchObject({ sandbox: 'shell', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('a shell hook\'s updatedInput (allow) is a rewrite: `echo A > out.txt` runs as `echo B > out.txt`, logged as tool/rewrite', () => {
    mkdirSync(join(workspace.dir, 'hooks'));
    const answer = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo B > out.txt","description":"kept"}}}';
    write('hooks/rewrite.sh', `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'echo A > out.txt'*) echo '${answer}';; esac\n`, true);
    write('.claude-settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './hooks/rewrite.sh', timeout: 10 }] }] } });
    const imported = hookbox(['import-claude', '.claude-settings.json', '-o', 'hookbox.config.json']);
    expect(imported.status, imported.stderr).toBe(0);
    const script = write('script.json', { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo A > out.txt' } }] }, { text: 'done' }] });
    const run = hookbox(['run', '--config', 'hookbox.config.json', '--script', script, '--log', workspace.logPath, '--cwd', workspace.dir, 'write it']);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(workspace.dir, 'out.txt'), 'utf8')).toBe('B\n');
    expect(events(workspace).find((event) => event.type === 'tool/rewrite')).toMatchObject({
      original: { command: 'echo A > out.txt' },
      arguments: { command: 'echo B > out.txt' },
      hooks: ['claude-pre-tool-use-1'],
    });
  });

  it('without -o prints the config on stdout and the report on stderr; an existing -o file needs --force', () => {
    writeClaudeHooks();
    const printed = hookbox(['import-claude', '.claude-settings.json']);
    expect(printed.status).toBe(0);
    expect(JSON.parse(printed.stdout).hooks).toHaveLength(5);
    expect(printed.stderr).toContain('Not imported (1):');
    write('taken.json', '{}');
    const refused = hookbox(['import-claude', '.claude-settings.json', '-o', 'taken.json']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('taken.json: already exists; pass --force');
  });
});

describe('hookbox import-codex, then hookbox run', () => {
  it('runs a Codex PreToolUse hook from config.toml on the bash tool', () => {
    write('guard.sh', `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'"model":"hookbox"'*'rm -rf'*) echo "codex guard: no" >&2; exit 2;; esac\n`, true);
    write('config.toml', ['[features]', 'hooks = true', '', '[[hooks.PreToolUse]]', 'matcher = "Bash"', '[[hooks.PreToolUse.hooks]]', 'type = "command"', 'command = "./guard.sh"', 'timeout = 10'].join('\n'));
    const imported = hookbox(['import-codex', 'config.toml', '-o', 'hookbox.config.json']);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('Imported 1 Codex hook(s)');
    const script = write('script.json', { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf x' } }] }, { text: 'ok' }] });
    const run = hookbox(['run', '--config', 'hookbox.config.json', '--script', script, '--log', workspace.logPath, '--cwd', workspace.dir, 'go']);
    expect(run.status).toBe(0);
    expect(sequence(events(workspace))).toContain('tool/result 1.1 c1 error: Tool call denied by a hook: codex guard: no');
  });

  it('a shell hook\'s updatedInput (allow) from a hooks.json is a rewrite: `echo A > out.txt` runs as `echo B > out.txt`; a malformed updatedInput is a schema fault that denies the call', () => {
    const answer = (updatedInput: string) => `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":${updatedInput}}}`;
    // A real Codex hook script: plain sh, the hook JSON on stdin, the answer on stdout.
    write(
      'rewrite.sh',
      [
        '#!/bin/sh',
        'input=$(cat)',
        'case "$input" in',
        `  *'"tool_name":"Bash"'*'echo A > out.txt'*) echo '${answer('{"command":"echo B > out.txt"}')}';;`,
        `  *'echo M > m.txt'*) echo '${answer('"echo B > m.txt"')}';;`,
        `  *'echo N > n.txt'*) echo '${answer('{"command":42}')}';;`,
        'esac',
        '',
      ].join('\n'),
      true,
    );
    write('hooks.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './rewrite.sh', timeout: 10 }] }] } });
    const imported = hookbox(['import-codex', 'hooks.json', '-o', 'hookbox.config.json']);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported 1 Codex hook(s)');
    const script = write('script.json', {
      steps: [
        { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo A > out.txt' } }] },
        { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo M > m.txt' } }] },
        { toolCalls: [{ id: 'c3', name: 'bash', arguments: { command: 'echo N > n.txt' } }] },
        { text: 'done' },
      ],
    });
    const run = hookbox(['run', '--config', 'hookbox.config.json', '--script', script, '--log', workspace.logPath, '--cwd', workspace.dir, 'write them']);
    expect(run.status, run.stderr).toBe(0);
    // The arguments that ran are the rewritten ones.
    expect(readFileSync(join(workspace.dir, 'out.txt'), 'utf8')).toBe('B\n');
    const all = events(workspace);
    expect(all.filter((event) => event.type === 'tool/rewrite')).toMatchObject([
      { toolCallId: 'c1', original: { command: 'echo A > out.txt' }, arguments: { command: 'echo B > out.txt' }, hooks: ['codex-pre-tool-use-1'] },
    ]);
    // A malformed updatedInput is the hook's schema fault, named; the imported hook fails closed, so the call never runs.
    expect(existsSync(join(workspace.dir, 'm.txt'))).toBe(false);
    expect(existsSync(join(workspace.dir, 'n.txt'))).toBe(false);
    const faults = all.flatMap((event) => (event.type === 'hook/invoke' && event.fault !== undefined ? [event.fault] : []));
    expect(faults).toMatchObject([
      { kind: 'schema', message: 'output.hookSpecificOutput.updatedInput: Invalid input: expected record, received string' },
      { kind: 'schema', message: 'output.hookSpecificOutput.updatedInput: not a Bash input hookbox reads back as bash (for bash it needs a "command" string)' },
    ]);
    const results = all.flatMap((event) => (event.type === 'tool/result' ? [event] : []));
    expect(results.map((result) => [result.toolCallId, result.hookEffect ?? 'ran'])).toEqual([
      ['c1', 'ran'],
      ['c2', 'denied'],
      ['c3', 'denied'],
    ]);
    expect(results[1]?.content).toBe(
      'Tool call denied by a hook: hook "codex-pre-tool-use-1" failed (schema): output.hookSpecificOutput.updatedInput: Invalid input: expected record, received string',
    );
    expect(results[2]?.content).toContain('failed (schema): output.hookSpecificOutput.updatedInput: not a Bash input hookbox reads back as bash');
  });
});

/** A wasm hook speaking the Claude Code protocol: JSON in, stdout / return code / error_set out. */
function claudeWat(): string {
  const data = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'wasm says no' } });
  const prefix = 'input was ';
  return extismModule(`(data (i32.const 0) ${data(deny)})
  (data (i32.const 1024) "no prompts here")
  (data (i32.const 2048) ${data(prefix)})
  (func $block (param $ptr i32) (param $len i32) (result i64)
    (local $b i64) (local $i i32)
    (local.set $b (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
      (call $store_u8 (i64.add (local.get $b) (i64.extend_i32_u (local.get $i))) (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.get $b))
  ;; stdout = "input was " + the input: plain text, so SessionStart takes it as context.
  (func (export "session_start") (result i32)
    (local $n i64) (local $b i64) (local $i i64)
    (local.set $n (call $input_length))
    (local.set $b (call $alloc (i64.add (local.get $n) (i64.const ${prefix.length}))))
    (block $done (loop $copy
      (br_if $done (i64.ge_u (local.get $i) (i64.const ${prefix.length})))
      (call $store_u8 (i64.add (local.get $b) (local.get $i)) (i32.load8_u (i32.add (i32.const 2048) (i32.wrap_i64 (local.get $i)))))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $copy)))
    (local.set $i (i64.const 0))
    (block $done (loop $copy
      (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
      (call $store_u8 (i64.add (local.get $b) (i64.add (local.get $i) (i64.const ${prefix.length}))) (call $input_load_u8 (local.get $i)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $copy)))
    (call $output_set (local.get $b) (i64.add (local.get $n) (i64.const ${prefix.length})))
    (i32.const 0))
  (func (export "pre_tool") (result i32)
    (call $output_set (call $block (i32.const 0) (i32.const ${deny.length})) (i64.const ${deny.length}))
    (i32.const 0))
  ;; error_set + return 2 = exit code 2 with stderr: block.
  (func (export "prompt_submit") (result i32)
    (call $error_set (call $block (i32.const 1024) (i32.const 15)))
    (i32.const 2))
  ;; return 1 = a non-blocking error in Claude Code: a plugin-error fault here.
  (func (export "post_tool") (result i32) (i32.const 1))
  ;; error_set with return 0: Extism says the call failed (its output is lost): a plugin-error fault.
  (func (export "turn_continuation") (result i32)
    (call $error_set (call $block (i32.const 1024) (i32.const 15)))
    (i32.const 0))`, { memory: '1 16' });
}

describe('a wasm hook with "protocol": "claude-code"', () => {
  async function writeManifest(): Promise<string> {
    const bytes = await compileWatSource(claudeWat(), 'claude-protocol.wat');
    writeFileSync(join(workspace.dir, 'cc.wasm'), bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const seams = ['agent/session-start', 'agent/prompt-submit', 'tools/pre-execute', 'tools/post-execute', 'agent/turn-continuation'];
    return write('hook.json', { name: 'cc-wasm', version: '1.0.0', protocol: 'claude-code', wasm: 'cc.wasm', sha256, seams });
  }

  it('gets the Claude Code JSON as input; its output, return code and error_set text map like a shell hook', async () => {
    const spec = loadHookFile(await writeManifest());
    expect(spec.codec?.name).toBe('claude-code');
    const runner = await HookRunner.start({ workers: 1, spareWorker: false });
    try {
      const hook = await runner.load(spec);
      const session = { id: 's-1', turn: 1, step: 1, cwd: workspace.dir };
      const start = await invokeListener(hook, 'agent/session-start', { source: 'startup' }, null, session);
      const context = (start.decision as { additionalContext: string }).additionalContext;
      expect(context.startsWith('input was ')).toBe(true);
      expect(JSON.parse(context.slice('input was '.length))).toEqual({
        session_id: 's-1',
        transcript_path: null,
        cwd: workspace.dir,
        permission_mode: 'default',
        hook_event_name: 'SessionStart',
        source: 'startup',
      });
      const prompt = await invokeListener(hook, 'agent/prompt-submit', { content: 'hi', source: 'cli' }, { action: 'allow' }, session);
      expect(prompt.invocation).toMatchObject({ sandbox: 'wasm', outcome: 'decision', decision: { action: 'block', reason: 'no prompts here' } });
      const call = { toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a.txt' } };
      const pre = await invokeListener(hook, 'tools/pre-execute', call, { action: 'allow' }, session);
      expect(pre.decision).toEqual({ action: 'deny', reason: 'wasm says no' });
      const post = await invokeListener(hook, 'tools/post-execute', { ...call, result: { content: 'x', isError: false } }, { action: 'accept' }, session);
      expect(post.invocation.fault).toMatchObject({ kind: 'plugin-error', message: expect.stringContaining('exited with code 1') });
      expect(post.decision).toMatchObject({ action: 'block' });
      const stop = await invokeListener(hook, 'agent/turn-continuation', { continuations: 0 }, { action: 'stop' }, session);
      expect(stop.invocation.fault).toEqual({ kind: 'plugin-error', message: 'no prompts here' });
      expect(stop.decision).toBeNull();
    } finally {
      await runner.close();
    }
  });

  it('hookbox call speaks the protocol too', async () => {
    const manifest = await writeManifest();
    const payload = write('payload.json', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } });
    const result = hookbox(['call', manifest, '--seam', 'tools/pre-execute', '--payload', payload, '--json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: { action: 'deny', reason: 'wasm says no' }, fault: null });
    expect(existsSync(join(workspace.dir, 'cc.wasm'))).toBe(true);
    expect(readFileSync(manifest, 'utf8')).toContain('"protocol": "claude-code"');
  });
});
