/**
 * Layered configuration through the real `hookbox` bin: the organisation's
 * guard (the real guard-bash wasm) runs first in `hookbox run`; a project
 * config that drops, opens or loosens it is refused by every command that
 * loads hooks (run, acp, serve, replay, call), naming both files; `config
 * explain` shows the layer of each value. HOME, XDG_CONFIG_HOME and
 * HOOKBOX_ORG_CONFIG point into a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { exampleManifest } from '../helpers/examples.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

let root: string;
let org: string;
let user: string;
let project: string;
let script: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookbox-layers-cli-'));
  mkdirSync(join(root, 'org'));
  mkdirSync(join(root, 'xdg', 'hookbox'), { recursive: true });
  mkdirSync(join(root, 'project'));
  org = join(root, 'org', 'config.json');
  user = join(root, 'xdg', 'hookbox', 'config.json');
  project = join(root, 'project', 'hookbox.config.json');
  script = join(root, 'script.json');
  write(org, {
    hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash'), failPolicy: 'closed' }],
    defaults: { timeoutMs: 2000, failPolicy: 'closed', grant: { env: ['LANG'] } },
    locked: ['defaults.quarantineAfter'],
  });
  write(script, {
    steps: [
      { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo hi' } }] },
      { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'rm -rf /' } }] },
      { text: 'done' },
    ],
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2));
}

function hookbox(args: readonly string[]) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, NO_COLOR: '1', HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), HOOKBOX_ORG_CONFIG: org },
    timeout: 60_000,
  });
}

describe('hookbox run with three layers', () => {
  it('the organisation guard runs first, then the user and project hooks; its deny stops the rest', () => {
    write(user, { hooks: [{ name: 'audit-trail', manifest: exampleManifest('audit-trail') }] });
    write(project, { hooks: [{ name: 'secret-redactor', manifest: exampleManifest('secret-redactor') }] });
    const log = join(root, 'session.jsonl');
    const result = hookbox(['run', '--script', script, '--config', project, '--log', log, '--cwd', root, 'clean up']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('hook guard-bash tools/pre-execute deny');
    const invoked = readSessionLog(log).events.filter((event): event is Extract<SessionEvent, { type: 'hook/invoke' }> => event.type === 'hook/invoke');
    const preTool = invoked.filter((event) => event.seam === 'tools/pre-execute').map((event) => `${event.hook}:${(event.decision as { action?: string } | undefined)?.action ?? event.outcome}`);
    // echo hi: the guard first, then the user's audit hook; rm -rf /: the guard denies and nothing runs after it.
    expect(preTool).toEqual([expect.stringMatching(/^guard-bash:/), expect.stringMatching(/^audit-trail:/), 'guard-bash:deny']);
    expect(invoked.some((event) => event.hook === 'secret-redactor' && event.seam === 'tools/post-execute')).toBe(true);
  });
});

describe('hookbox run without --config', () => {
  it('still runs the organisation guard: no project config is no way around it', () => {
    const log = join(root, 'session.jsonl');
    const result = hookbox(['run', '--script', script, '--log', log, '--cwd', root, 'clean up']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('hook guard-bash tools/pre-execute deny');
  });
});

describe('a project config that weakens the organisation guard is refused, naming both files', () => {
  const attempts = [
    ['drop (redefine) the guard', { hooks: [{ name: 'guard-bash', manifest: exampleManifest('audit-trail') }] }, 'hooks[0].name: "guard-bash" is the organisation layer\'s hook'],
    ['open (failPolicy)', { hooks: [], defaults: { failPolicy: 'open' } }, 'defaults.failPolicy: "open" weakens the organisation layer\'s "closed"'],
    ['loosen a limit', { hooks: [{ name: 'slow', manifest: exampleManifest('audit-trail'), timeoutMs: 60000 }] }, 'hooks[0].timeoutMs: 60000 is above the organisation layer\'s 2000'],
    ['loosen a grant', { hooks: [{ name: 'leaky', manifest: exampleManifest('audit-trail'), grant: { env: ['AWS_SECRET_ACCESS_KEY'] } }] }, 'hooks[0].grant.env: "AWS_SECRET_ACCESS_KEY" not in "LANG"'],
  ] as const;

  it.each(attempts)('%s: hookbox run exits 2 before any session starts', (_what, config, detail) => {
    write(project, config);
    const log = join(root, 'session.jsonl');
    const result = hookbox(['run', '--script', script, '--config', project, '--log', log, '--cwd', root, 'hi']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${project}: ${detail}`);
    expect(result.stderr).toContain(org);
    expect(result.stdout).toBe('');
  });

  // An empty log: replay reads it, then loads the hooks.
  it.each([
    ['acp', () => ['acp', '--script', script, '--config', project]],
    ['serve', () => ['serve', '--config', project, '--socket', join(root, 'serve.sock')]],
    ['replay', () => ['replay', writeEmpty(join(root, 'session.jsonl')), '--config', project]],
    ['config explain', () => ['config', 'explain', '--config', project]],
  ] as const)('%s refuses the same project config the same way', (_command, args) => {
    write(project, attempts[0][1]);
    const result = hookbox(args());
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${project}: ${attempts[0][2]} (${org}: hooks[0])`);
  });

  it('call runs a hook file under the layers: a flag above the organisation limit is refused, one within it runs', () => {
    const payload = join(root, 'payload.json');
    write(payload, { toolName: 'bash', toolCallId: 'c1', arguments: { command: 'rm -rf /' } });
    const call = hookbox(['call', exampleManifest('guard-bash'), '--seam', 'tools/pre-execute', '--payload', payload, '--timeout-ms', '60000']);
    expect(call.status).toBe(2);
    expect(call.stderr).toContain(`the command line: --timeout-ms: 60000 is above the organisation layer's 2000 (${org}: defaults.timeoutMs)`);
    const within = hookbox(['call', exampleManifest('guard-bash'), '--seam', 'tools/pre-execute', '--payload', payload, '--timeout-ms', '1500', '--json']);
    expect(within.status).toBe(0);
    expect(JSON.parse(within.stdout)).toMatchObject({ decision: { action: 'deny' }, fault: null });
  });
});

function writeEmpty(file: string): string {
  writeFileSync(file, '');
  return file;
}

describe('hookbox config explain', () => {
  beforeEach(() => {
    write(user, { hooks: [{ name: 'audit-trail', manifest: exampleManifest('audit-trail') }], defaults: { timeoutMs: 1500 } });
    write(project, { hooks: [{ name: 'secret-redactor', manifest: exampleManifest('secret-redactor'), memoryMb: 32 }] });
  });

  it('--json: each hook with its layer, each value with the layer, file and JSON path it came from', () => {
    const result = hookbox(['config', 'explain', '--config', project, '--json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const explained = JSON.parse(result.stdout) as {
      layers: { layer: string; file: string; present: boolean }[];
      hooks: { name: string; layer: string; settings: Record<string, { value: unknown; layer: string; file: string; at: string }> }[];
      defaults: Record<string, { value: unknown; layer: string }>;
      locked: Record<string, { layer: string; at: string }>;
    };
    expect(explained.layers.map((layer) => [layer.layer, layer.file, layer.present])).toEqual([
      ['organisation', org, true],
      ['user', user, true],
      ['project', project, true],
    ]);
    expect(explained.hooks.map((hook) => [hook.name, hook.layer])).toEqual([
      ['guard-bash', 'organisation'],
      ['audit-trail', 'user'],
      ['secret-redactor', 'project'],
    ]);
    const redactor = explained.hooks[2]?.settings;
    expect(redactor?.memoryMb).toEqual({ value: 32, layer: 'project', file: project, at: 'hooks[0].memoryMb' });
    expect(redactor?.timeoutMs).toEqual({ value: 1500, layer: 'user', file: user, at: 'defaults.timeoutMs' });
    expect(redactor?.failPolicy).toEqual({ value: 'closed', layer: 'organisation', file: org, at: 'defaults.failPolicy' });
    expect(explained.defaults.timeoutMs).toMatchObject({ value: 1500, layer: 'user' });
    expect(explained.locked['defaults.quarantineAfter']).toMatchObject({ layer: 'organisation', at: 'locked[0]' });
  });

  it('text: the layers, the hooks in order with their layer, and the origin of each value', () => {
    const result = hookbox(['config', 'explain', '--config', project]);
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(`  organisation ${org} (HOOKBOX_ORG_CONFIG)`);
    expect(lines).toContain(`  1. guard-bash — organisation (${org}: hooks[0])`);
    expect(lines).toContain(`  2. audit-trail — user (${user}: hooks[0])`);
    expect(lines).toContain(`  3. secret-redactor — project (${project}: hooks[0])`);
    expect(lines.some((line) => /^ {7}timeoutMs +1500 +user: .*config\.json: defaults\.timeoutMs$/.test(line))).toBe(true);
    expect(lines.some((line) => line.startsWith('  defaults.quarantineAfter') && line.endsWith(`organisation: ${org}: locked[0]`))).toBe(true);
  });

  it('bad input: a missing --config file, exit 2 with one line naming it; --help describes it', () => {
    const missing = hookbox(['config', 'explain', '--config', join(root, 'nope.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain(join(root, 'nope.json'));
    const help = hookbox(['config', 'explain', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--json');
    expect(help.stdout).toContain('the layer, file and JSON path');
  });
});
