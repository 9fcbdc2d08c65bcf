import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoResult, runDemo } from '../../host/cli/commands/demo.ts';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { type TestWorkspace, makeWorkspace, sequence } from '../helpers/session.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
let workspace: TestWorkspace;
let demo: DemoResult;
let transcript = '';
let all: SessionEvent[];

beforeAll(async () => {
  workspace = makeWorkspace('hookbox-demo-test-');
  demo = await runDemo((text) => (transcript += stripVTControlCharacters(text)), workspace.dir);
  all = readSessionLog(demo.logPath).events;
});
afterAll(() => workspace.dispose());

const invoke = (hook: string, predicate: (e: Extract<SessionEvent, { type: 'hook/invoke' }>) => boolean = () => true) =>
  all.filter((e): e is Extract<SessionEvent, { type: 'hook/invoke' }> => e.type === 'hook/invoke' && e.hook === hook && predicate(e));

describe('the demo session', () => {
  it('every decision comes from a real wasm hook (pinned digest)', () => {
    const invocations = all.filter((e) => e.type === 'hook/invoke');
    expect(invocations.length).toBeGreaterThan(20);
    for (const event of invocations) expect(event.type === 'hook/invoke' && event.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(invocations.some((e) => e.type === 'hook/invoke' && e.outcome === 'fault')).toBe(false);
  });

  it('denies the destructive command and degrades the asked git push to deny', () => {
    const results = all.filter((e) => e.type === 'tool/result');
    expect(results.find((e) => e.type === 'tool/result' && e.toolCallId === 'call_1')).toMatchObject({ hookEffect: 'denied', isError: true });
    const push = results.find((e) => e.type === 'tool/result' && e.toolCallId === 'call_6');
    expect(push).toMatchObject({ hookEffect: 'denied' });
    expect(push?.type === 'tool/result' && push.content).toContain('ask degraded to deny');
    expect(invoke('guard-bash', (e) => (e.applied as { action?: string } | null)?.action === 'ask')).toHaveLength(1);
  });

  it('redacts the secrets read from .env', () => {
    const env = all.find((e) => e.type === 'tool/result' && e.toolCallId === 'call_2');
    expect(env).toMatchObject({ hookEffect: 'replaced' });
    expect(JSON.stringify(all.filter((e) => e.type === 'tool/result'))).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('injects context, forces a continuation that ends when the tests pass, and rejects the secret prompt', () => {
    const seq = sequence(all);
    expect(seq.filter((line) => line.startsWith('context/message 1 (session-start)'))).toHaveLength(1);
    expect(seq.filter((line) => line.startsWith('context/message 1 (prompt-submit)'))).toHaveLength(1);
    expect(seq.filter((line) => line.startsWith('steering/message 1:'))).toHaveLength(1);
    expect(seq.filter((line) => line.startsWith('turn/end'))).toEqual([
      'turn/end 1 completed steps=6',
      'turn/end 2 completed steps=2',
      'turn/end 3 rejected steps=0',
    ]);
    expect(readFileSync(join(demo.workspace, 'add.js'), 'utf8')).toContain('a + b');
  });

  it('prints a transcript with every hook decision and where the log is', () => {
    expect(transcript).toContain('guard-bash');
    expect(transcript).toMatch(/hook guard-bash tools\/pre-execute deny/);
    expect(transcript).toMatch(/µs/);
    expect(transcript).toContain(`session log ${demo.logPath}`);
  });

  it('hookbox replay reports what changes without guard-bash (exit 1), and nothing with the same hooks (exit 0)', () => {
    const config = JSON.parse(readFileSync(demo.configPath, 'utf8')) as { hooks: { name: string }[] };
    const without = join(demo.workspace, 'without-guard.json');
    writeFileSync(without, JSON.stringify({ hooks: config.hooks.filter((hook) => hook.name !== 'guard-bash') }));
    const changed = spawnSync(process.execPath, [BIN, 'replay', demo.logPath, '--config', without], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(changed.stderr).toBe('');
    expect(changed.status).toBe(1);
    expect(changed.stdout).toMatch(/2 would change/);
    expect(changed.stdout).toContain('deny (guard-bash: recursive-delete');
    expect(changed.stdout).toContain('ask (guard-bash: git-push: pushes to a remote) → allow');
    expect(changed.stdout).toContain('before: audit-trail: no opinion; guard-bash: deny');

    const same = spawnSync(process.execPath, [BIN, 'replay', demo.logPath, '--config', demo.configPath, '--json'], { encoding: 'utf8' });
    expect(same.status).toBe(0);
    const report = JSON.parse(same.stdout) as { decisions: { changed: boolean }[] };
    expect(report.decisions.length).toBeGreaterThan(5);
    expect(report.decisions.every((decision) => !decision.changed)).toBe(true);
  });
});
