import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionEventSchema } from '../../host/log/index.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { type TestWorkspace, events, makeWorkspace, sequence } from '../helpers/session.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-cli-');
});
afterEach(() => workspace.dispose());

function hookbox(args: string[], input?: string) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: input ?? '', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
}

function writeScript(steps: unknown[]): string {
  const path = join(workspace.dir, 'script.json');
  writeFileSync(path, JSON.stringify({ steps }));
  return path;
}

describe('hookbox run', () => {
  it('runs prompts from arguments with hooks from a config, one turn each, printing a transcript', () => {
    const script = writeScript([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf /' } }] }, { text: 'denied, ok' }, { text: 'second' }]);
    const config = writeExampleConfig(workspace.dir, [{ name: 'guard-bash' }]);
    const result = hookbox(['run', '--script', script, '--config', config, '--log', workspace.logPath, '--cwd', workspace.dir, 'clean up', 'and again']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('hook guard-bash tools/pre-execute deny');
    expect(result.stdout).toContain(`session log: ${workspace.logPath}`);
    expect(sequence(events(workspace)).filter((line) => line.startsWith('turn/end'))).toEqual([
      'turn/end 1 completed steps=2',
      'turn/end 2 completed steps=1',
    ]);
  });

  it('reads prompts from stdin one per line and prints JSONL with --json; --resume continues the log', () => {
    const script = writeScript([{ text: 'one' }, { text: 'two' }]);
    const result = hookbox(['run', '--script', script, '--log', workspace.logPath, '--cwd', workspace.dir, '--json'], 'first\n\nsecond\n');
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    for (const line of lines) expect(SessionEventSchema.safeParse(JSON.parse(line)).success).toBe(true);
    expect(sequence(events(workspace))).toContain('user/message 2: second');

    const again = writeScript([{ text: 'three' }]);
    const resumed = hookbox(['run', '--resume', '--script', again, '--log', workspace.logPath, '--cwd', workspace.dir, 'third']);
    expect(resumed.status).toBe(0);
    expect(sequence(events(workspace)).slice(-3)).toEqual(['user/message 3: third', 'assistant/message 3.1: three', 'turn/end 3 completed steps=1']);
  });

  it('a bad operator config is a clear error naming the file and the JSON path, exit 2, and no log is written', () => {
    const script = writeScript([{ text: 'x' }]);
    const config = join(workspace.dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard', wasm: 'guard.wasm', timeoutMs: -5 }] }));
    const result = hookbox(['run', '--script', script, '--config', config, '--log', workspace.logPath, 'hi']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(config);
    expect(result.stderr).toContain('hooks[0].timeoutMs');
    expect(result.stdout).toBe('');
  });

  it('the scripted provider without a script, and an unknown provider, are clear errors', () => {
    expect(hookbox(['run', 'hi']).stderr).toContain('the scripted provider needs --script FILE');
    const unknown = hookbox(['run', '--provider', 'gpt', 'hi']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown --provider "gpt"');
    const noKey = spawnSync(process.execPath, [BIN, 'run', '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--api-key-env', 'HOOKBOX_TEST_NO_SUCH_KEY', 'hi'], { encoding: 'utf8' });
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toContain('set the HOOKBOX_TEST_NO_SUCH_KEY environment variable');
  });
});

describe('hookbox --help', () => {
  it.each(['run', 'demo', 'call', 'inspect', 'build', 'init', 'replay'])('%s --help describes the command', (command) => {
    const result = hookbox([command, '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Usage: hookbox ${command}`);
  });

  it('an unknown command fails with a message', () => {
    const result = hookbox(['explode']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("unknown command 'explode'");
  });
});
