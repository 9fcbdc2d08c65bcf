/**
 * hookbox's self-protection as a seam listener (host/guard/self-protection.ts),
 * on real files in a temporary project and home: the pre-tool refusal, the
 * tamper check after a tool (what changed is put back, byte for byte, and
 * the result withheld), the operator's narrowing from the organisation or
 * user layer only, and its place before every operator hook on a real bus.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLayeredConfig, selfProtectionFor } from '../../host/config/index.ts';
import { SeamBus, nativeHook } from '../../host/events/index.ts';
import { SELF_PROTECTION_HOOK, selfProtectionHook } from '../../host/guard/index.ts';
import type { SeamListener } from '../../host/events/index.ts';

let root: string;
let project: string;
let home: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-guard-'));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), '{"hooks":{"PreToolUse":[]}}\n');
  writeFileSync(path.join(project, 'hookbox.config.json'), '{"hooks":[]}\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const session = (cwd = project) => ({ id: 's1', turn: 1, step: 1, cwd });
const guard = (allowPaths: string[] = []): SeamListener =>
  selfProtectionHook({ project, home, configFiles: [path.join(project, 'hookbox.config.json')], settings: { enabled: true, allowPaths } });

function pre(listener: SeamListener, toolName: string, args: Record<string, unknown>, id = 'c1') {
  return listener.invoke({ seam: 'tools/pre-execute', payload: { toolCallId: id, toolName, arguments: args }, next: { action: 'allow' }, session: session() });
}
function post(listener: SeamListener, id = 'c1') {
  return listener.invoke({
    seam: 'tools/post-execute',
    payload: { toolCallId: id, toolName: 'bash', arguments: {}, result: { content: 'ok', isError: false } },
    next: { action: 'accept' },
    session: session(),
  });
}

describe('before the tool: a change to a protected path is denied, with the reason', () => {
  it('denies the self-disable of Claude Code through the shell', async () => {
    const outcome = await pre(guard(), 'bash', { command: `printf %s '{"disableAllHooks":true}' > .claude/settings.local.json` });
    expect(outcome).toMatchObject({ type: 'decision', decision: { action: 'deny' } });
    expect((outcome as { decision: { reason: string } }).decision.reason).toMatch(/self-protection: bash denied because it redirects output into .*\.claude\/settings\.local\.json/);
  });

  it('denies a write tool on hookbox.config.json and lets an ordinary write through', async () => {
    expect(await pre(guard(), 'write_file', { path: 'hookbox.config.json', content: '{}' })).toMatchObject({ decision: { action: 'deny' } });
    expect(await pre(guard(), 'write_file', { path: 'src/a.ts', content: '' })).toEqual({ type: 'no-opinion' });
  });

  it('lets a path the operator allowed (selfProtection.allowPaths) through', async () => {
    const listener = guard([path.join(project, '.claude', 'settings.local.json')]);
    expect(await pre(listener, 'bash', { command: 'echo {} > .claude/settings.local.json' })).toEqual({ type: 'no-opinion' });
    expect(await pre(listener, 'bash', { command: 'echo {} > .claude/settings.json' })).toMatchObject({ decision: { action: 'deny' } });
  });
});

describe('after the tool: what changed anyway is put back and the result withheld', () => {
  it('removes a settings.local.json the tool created under a name only the shell knew', async () => {
    const listener = guard();
    expect(await pre(listener, 'bash', { command: 'f=$(printf .clau)de; echo "{\\"disableAllHooks\\":true}" > $f/settings.local.json' })).toEqual({ type: 'no-opinion' });
    writeFileSync(path.join(project, '.claude', 'settings.local.json'), '{"disableAllHooks":true}');
    const outcome = await post(listener);
    expect(outcome).toMatchObject({ type: 'decision', decision: { action: 'block' } });
    expect((outcome as { decision: { reason: string } }).decision.reason).toMatch(/changed .*settings\.local\.json.*hookbox put it back/);
    expect(existsSync(path.join(project, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('restores a changed settings file byte for byte and takes a new Copilot hook file out', async () => {
    const settings = path.join(project, '.claude', 'settings.json');
    const before = readFileSync(settings);
    const listener = guard();
    await pre(listener, 'bash', { command: 'sh ./script.sh' });
    writeFileSync(settings, '{}');
    mkdirSync(path.join(project, '.github', 'hooks'), { recursive: true });
    writeFileSync(path.join(project, '.github', 'hooks', 'x.json'), '{"version":1}');
    expect(await post(listener)).toMatchObject({ decision: { action: 'block' } });
    expect(readFileSync(settings).equals(before)).toBe(true);
    expect(existsSync(path.join(project, '.github', 'hooks', 'x.json'))).toBe(false);
  });

  it('leaves .hookbox/ to hookbox: a session log appended during the tool is neither reported nor put back', async () => {
    const log = path.join(project, '.hookbox', 'sessions', 'claude-code-s1.jsonl');
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, '{"type":"session/start"}\n');
    const listener = guard();
    await pre(listener, 'bash', { command: 'npm test' });
    writeFileSync(log, '{"type":"session/start"}\n{"type":"tool/call"}\n');
    expect(await post(listener)).toEqual({ type: 'no-opinion' });
    expect(readFileSync(log, 'utf8')).toContain('tool/call');
  });

  it('has no opinion when nothing protected changed, and for a call it never saw', async () => {
    const listener = guard();
    await pre(listener, 'bash', { command: 'echo hi > out.txt' });
    writeFileSync(path.join(project, 'out.txt'), 'hi');
    expect(await post(listener)).toEqual({ type: 'no-opinion' });
    expect(await post(listener, 'never-seen')).toEqual({ type: 'no-opinion' });
  });
});

describe('on a bus: first, never relaxed, and quiet when it has no opinion', () => {
  it('its deny stands over a later allow, and its no-opinion is not recorded', async () => {
    const bus = new SeamBus();
    bus.use(guard());
    bus.use(nativeHook({ name: 'allow-all', handlers: { 'tools/pre-execute': () => ({ action: 'allow' }) } }));
    const denied = await bus.dispatch('tools/pre-execute', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf .claude' } }, session());
    expect(denied.decision.action).toBe('deny');
    expect(denied.invocations.map((invocation) => invocation.hook)).toEqual([SELF_PROTECTION_HOOK]);
    const allowed = await bus.dispatch('tools/pre-execute', { toolCallId: 'c2', toolName: 'bash', arguments: { command: 'ls' } }, session());
    expect(allowed.decision.action).toBe('allow');
    expect(allowed.invocations.map((invocation) => invocation.hook)).toEqual(['allow-all']);
  });
});

describe('who may narrow it: the organisation or user layer, never the project', () => {
  const env = (extra: Record<string, string> = {}) => ({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...extra });
  const userFile = () => path.join(home, '.config', 'hookbox', 'config.json');
  const write = (file: string, value: unknown) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(value));
  };

  it('is on by default, with every layer file protected', () => {
    const config = loadLayeredConfig({ project: path.join(project, 'hookbox.config.json'), env: env() });
    expect(config.selfProtection).toEqual({ enabled: true, allowPaths: [] });
    expect(selfProtectionFor(config, path.join(project, 'hookbox.config.json'))?.name).toBe(SELF_PROTECTION_HOOK);
  });

  it('refuses a project config that sets it, naming the file', () => {
    write(path.join(project, 'hookbox.config.json'), { hooks: [], selfProtection: { enabled: false } });
    expect(() => loadLayeredConfig({ project: path.join(project, 'hookbox.config.json'), env: env() })).toThrow(/hookbox\.config\.json: selfProtection: only the organisation or user config may set it/);
  });

  it('lets the user layer turn it off, and the organisation layer keep it on against the user', () => {
    write(userFile(), { hooks: [], selfProtection: { enabled: false } });
    const off = loadLayeredConfig({ project: path.join(project, 'hookbox.config.json'), env: env() });
    expect(selfProtectionFor(off)).toBeUndefined();
    const org = path.join(root, 'org.json');
    write(org, { hooks: [], selfProtection: { enabled: true } });
    expect(() => loadLayeredConfig({ project: path.join(project, 'hookbox.config.json'), env: env({ HOOKBOX_ORG_CONFIG: org }) })).toThrow(/config\.json: selfProtection: .*org\.json \(a higher layer\) sets it/);
  });
});
