/**
 * Layered configuration (organisation › user › project): the merge rules and
 * every way a lower layer could weaken a higher one, each refused with both
 * files and the field. Real files in a temp folder; HOME, XDG_CONFIG_HOME
 * and HOOKBOX_ORG_CONFIG point into it, never at the machine's own.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_CONFIG, explainConfig, hookFileOverrides, layerFiles, loadLayeredConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

let root: string;
let env: NodeJS.ProcessEnv;
let org: string;
let user: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-layers-'));
  for (const dir of ['org', 'home/.config/hookbox', 'project', 'shared/reports', 'elsewhere']) mkdirSync(path.join(root, dir), { recursive: true });
  org = path.join(root, 'org', 'config.json');
  user = path.join(root, 'home', '.config', 'hookbox', 'config.json');
  project = path.join(root, 'project', 'hookbox.config.json');
  env = { HOME: path.join(root, 'home'), HOOKBOX_ORG_CONFIG: org };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, config: unknown): void {
  writeFileSync(file, JSON.stringify(config));
}

function load() {
  return loadLayeredConfig({ project, env });
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

/** An org layer with a guard failing closed, bounded limits and a narrow grant. */
function writeOrg(extra: Record<string, unknown> = {}): void {
  write(org, {
    hooks: [{ name: 'guard', wasm: 'guard.wasm', failPolicy: 'closed' }],
    defaults: {
      timeoutMs: 1000,
      memoryMb: 64,
      maxOutputBytes: 65536,
      instructionBudget: 1000000,
      memoryBudgetMb: 512,
      failPolicy: 'closed',
      grant: { allowedHosts: ['*.example.com'], allowedPaths: { '../shared': '/shared' }, env: ['LANG'] },
    },
    ...extra,
  });
}

describe('merging the layers', () => {
  it('runs the organisation hooks first, then the user and project ones; paths resolve against each file; defaults are inherited', () => {
    writeOrg();
    write(user, { hooks: [{ name: 'mine', wasm: 'mine.wasm' }], defaults: { timeoutMs: 500 } });
    write(project, { hooks: [{ name: 'local', wasm: 'local.wasm', memoryMb: 32 }, { name: 'first-in-file', wasm: 'x.wasm' }] });
    const config = load();
    expect(config.hooks.map((hook) => [hook.name, hook.wasm, hook.file])).toEqual([
      ['guard', path.join(root, 'org', 'guard.wasm'), org],
      ['mine', path.join(root, 'home', '.config', 'hookbox', 'mine.wasm'), user],
      ['local', path.join(root, 'project', 'local.wasm'), project],
      ['first-in-file', path.join(root, 'project', 'x.wasm'), project],
    ]);
    const local = config.hooks[2];
    expect(local?.limits).toEqual({ timeoutMs: 500, memoryMb: 32, maxOutputBytes: 65536, instructionBudget: 1000000 });
    expect(local?.failPolicy).toBe('closed');
    expect(local?.grant.allowedPaths).toEqual({ [path.join(root, 'shared')]: '/shared' });
    expect(config.runner).toEqual({ memoryBudgetMb: 512 });
  });

  it('stricter values in a lower layer are accepted: lower limits, closed under open, a narrower grant', () => {
    write(org, { hooks: [], defaults: { timeoutMs: 1000, failPolicy: 'open', grant: { allowedHosts: ['*.example.com'], allowedPaths: { '../shared': { path: '/s', write: true } }, env: ['LANG', 'TZ'], clock: true } } });
    write(project, {
      hooks: [{ name: 'a', wasm: 'a.wasm', timeoutMs: 10, failPolicy: 'closed', grant: { allowedHosts: ['api.example.com', '*.eu.example.com'], allowedPaths: { '../shared/reports': '/r' }, env: ['TZ'], clock: true } }],
      defaults: { timeoutMs: 999, failPolicy: 'open', memoryBudgetMb: 64 },
    });
    const [hook] = load().hooks;
    expect(hook?.limits.timeoutMs).toBe(10);
    expect(hook?.failPolicy).toBe('closed');
  });

  it('absent organisation and user files are no layer; the project alone loads as before', () => {
    env = { HOME: path.join(root, 'home'), XDG_CONFIG_HOME: path.join(root, 'xdg'), HOOKBOX_ORG_CONFIG: '' };
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm' }] });
    const files = layerFiles({ project, env });
    expect(files.map((f) => [f.layer, f.file, f.present])).toEqual([
      ['organisation', DEFAULT_ORG_CONFIG, expect.any(Boolean)],
      ['user', path.join(root, 'xdg', 'hookbox', 'config.json'), false],
      ['project', project, true],
    ]);
  });

  it('the user layer honours XDG_CONFIG_HOME (an absolute one), else ~/.config', () => {
    write(org, { hooks: [] });
    expect(layerFiles({ env: { ...env, XDG_CONFIG_HOME: '/x/cfg' } })[1]?.file).toBe('/x/cfg/hookbox/config.json');
    expect(layerFiles({ env: { ...env, XDG_CONFIG_HOME: 'relative' } })[1]?.file).toBe(user);
    expect(layerFiles({ env })[1]?.file).toBe(user);
  });

  it('HOOKBOX_ORG_CONFIG naming a missing file is an error, not a missing layer', () => {
    expect(refusal(() => layerFiles({ env }))).toBe(
      `HOOKBOX_ORG_CONFIG names ${org}, which does not exist; the organisation layer cannot be skipped (unset the variable to use ${DEFAULT_ORG_CONFIG})`,
    );
  });

  it('a file given as two layers is loaded once, as the higher one', () => {
    write(org, { hooks: [] });
    write(user, { hooks: [{ name: 'mine', wasm: 'mine.wasm' }] });
    const config = loadLayeredConfig({ project: user, env });
    expect(config.hooks.map((hook) => hook.name)).toEqual(['mine']);
    expect(config.layers[2]).toMatchObject({ layer: 'project', present: false, shadowedBy: 'user' });
  });

  it('explains where every value came from', () => {
    writeOrg({ locked: ['defaults.failPolicy'] });
    write(project, { hooks: [{ name: 'local', wasm: 'local.wasm', timeoutMs: 20, config: { k: 'v' } }] });
    const explained = explainConfig(load());
    expect(explained.hooks.map((hook) => [hook.name, hook.layer])).toEqual([['guard', 'organisation'], ['local', 'project']]);
    expect(explained.hooks[1]?.settings).toMatchObject({
      wasm: { value: path.join(root, 'project', 'local.wasm'), layer: 'project', file: project, at: 'hooks[0].wasm' },
      timeoutMs: { value: 20, layer: 'project', at: 'hooks[0].timeoutMs' },
      memoryMb: { value: 64, layer: 'organisation', file: org, at: 'defaults.memoryMb' },
      failPolicy: { value: 'closed', layer: 'organisation', at: 'defaults.failPolicy' },
      config: { value: { k: 'v' }, layer: 'project', at: 'hooks[0].config' },
    });
    expect(explained.defaults.timeoutMs).toEqual({ value: 1000, layer: 'organisation', file: org, at: 'defaults.timeoutMs' });
    expect(explained.locked).toEqual({ 'defaults.failPolicy': { layer: 'organisation', file: org, at: 'locked[0]' } });
  });
});

describe('a lower layer cannot weaken a higher one: each attempt names both files and the field', () => {
  beforeEach(() => writeOrg());

  it('drop or redefine an organisation hook (an entry with its name)', () => {
    write(project, { hooks: [{ name: 'ok', wasm: 'ok.wasm' }, { name: 'guard', wasm: 'allow-all.wasm' }] });
    expect(refusal(load)).toBe(
      `${project}: hooks[1].name: "guard" is the organisation layer's hook (${org}: hooks[0]); a lower layer cannot redefine, reorder or drop it (it runs first anyway: remove this entry)`,
    );
  });

  it('open a hook the organisation makes fail closed, on a hook or in defaults', () => {
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', failPolicy: 'open' }] });
    expect(refusal(load)).toBe(
      `${project}: hooks[0].failPolicy: "open" weakens the organisation layer's "closed" (${org}: defaults.failPolicy); a lower layer cannot make a hook fail open`,
    );
    write(project, { hooks: [], defaults: { failPolicy: 'open' } });
    expect(refusal(load)).toContain(`${project}: defaults.failPolicy: "open" weakens the organisation layer's "closed" (${org}: defaults.failPolicy)`);
  });

  it.each([
    ['timeoutMs', 1001],
    ['memoryMb', 65],
    ['maxOutputBytes', 65537],
    ['instructionBudget', 1000001],
  ] as const)('loosen a limit: %s above the organisation value, on a hook or in defaults', (key, value) => {
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', [key]: value }] });
    expect(refusal(load)).toMatch(new RegExp(`^${escape(project)}: hooks\\[0\\]\\.${key}: ${value} is above the organisation layer's \\d+ \\(${escape(org)}: defaults\\.${key}\\); a lower layer may only lower a limit$`));
    write(project, { hooks: [], defaults: { [key]: value } });
    expect(refusal(load)).toContain(`${project}: defaults.${key}: ${value} is above`);
  });

  it('loosen the runner-wide memory budget', () => {
    write(project, { hooks: [], defaults: { memoryBudgetMb: 1024 } });
    expect(refusal(load)).toBe(`${project}: defaults.memoryBudgetMb: 1024 is above the organisation layer's 512 (${org}: defaults.memoryBudgetMb); a lower layer may only lower a limit`);
  });

  it.each([
    ['a host the organisation does not allow', { allowedHosts: ['evil.com'] }, 'allowedHosts: "evil.com" is not covered by "*.example.com"'],
    ['a wider host wildcard', { allowedHosts: ['*.com'] }, 'allowedHosts: "*.com" is not covered by "*.example.com"'],
    ['an env name', { env: ['LANG', 'AWS_SECRET_ACCESS_KEY'] }, 'env: "AWS_SECRET_ACCESS_KEY" not in "LANG"'],
    ['the clock', { clock: true }, 'clock: true, but the clock is not allowed'],
  ])('widen a grant: %s', (_what, grant, detail) => {
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', grant }] });
    expect(refusal(load)).toBe(`${project}: hooks[0].grant.${detail}, wider than the organisation layer allows (${org}: defaults.grant.${detail.split(':')[0]})`);
  });

  it('widen a grant: a path outside the organisation grant, write on a read-only one, a symlink out of it', () => {
    const shared = path.join(root, 'shared');
    write(project, { hooks: [], defaults: { grant: { allowedPaths: { '../elsewhere': '/e' } } } });
    expect(refusal(load)).toBe(
      `${project}: defaults.grant.allowedPaths: "${path.join(root, 'elsewhere')}" is outside "${shared}", wider than the organisation layer allows (${org}: defaults.grant.allowedPaths)`,
    );
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', grant: { allowedPaths: { '../shared/reports': { path: '/r', write: true } } } }] });
    expect(refusal(load)).toBe(
      `${project}: hooks[0].grant.allowedPaths: "${path.join(shared, 'reports')}" is writable, but "${shared}" is read-only, wider than the organisation layer allows (${org}: defaults.grant.allowedPaths)`,
    );
    symlinkSync(path.join(root, 'elsewhere'), path.join(shared, 'escape'));
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', grant: { allowedPaths: { '../shared/escape/new': '/x' } } }] });
    expect(refusal(load)).toContain(`"${path.join(shared, 'escape', 'new')}" (${path.join(root, 'elsewhere', 'new')}) is outside "${shared}"`);
  });

  it('set a key the organisation locks, even to a stricter value; add hooks under a hooks lock', () => {
    writeOrg({ locked: ['defaults.timeoutMs', 'defaults.quarantineAfter'] });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', timeoutMs: 10 }] });
    expect(refusal(load)).toBe(`${project}: hooks[0].timeoutMs: the organisation layer locks timeoutMs (${org}: locked[0]); a lower layer cannot set it`);
    write(project, { hooks: [], defaults: { quarantineAfter: 100 } });
    expect(refusal(load)).toBe(`${project}: defaults.quarantineAfter: the organisation layer locks quarantineAfter (${org}: locked[1]); a lower layer cannot set it`);
    writeOrg({ locked: ['hooks'] });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm' }] });
    expect(refusal(load)).toBe(`${project}: hooks: the organisation layer locks the hook list (${org}: locked[0]); a lower layer cannot add hooks`);
  });

  it('the user layer is bound by the organisation, and binds the project in turn', () => {
    write(user, { hooks: [], defaults: { timeoutMs: 5000 } });
    expect(refusal(load)).toContain(`${user}: defaults.timeoutMs: 5000 is above the organisation layer's 1000 (${org}: defaults.timeoutMs)`);
    write(user, { hooks: [{ name: 'mine', wasm: 'mine.wasm' }], defaults: { timeoutMs: 200 }, locked: ['defaults.memoryMb'] });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', timeoutMs: 300 }] });
    expect(refusal(load)).toBe(`${project}: hooks[0].timeoutMs: 300 is above the user layer's 200 (${user}: defaults.timeoutMs); a lower layer may only lower a limit`);
    write(project, { hooks: [{ name: 'mine', wasm: 'a.wasm' }] });
    expect(refusal(load)).toContain(`"mine" is the user layer's hook (${user}: hooks[0])`);
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', memoryMb: 8 }] });
    expect(refusal(load)).toContain(`the user layer locks memoryMb (${user}: locked[0])`);
  });

  it('hookbox call: a flag above a layer limit names the flag and the layer file; the defaults apply to the hook', () => {
    expect(refusal(() => hookFileOverrides({ timeoutMs: { value: 5000, flag: '--timeout-ms' } }, { env }))).toBe(
      `the command line: --timeout-ms: 5000 is above the organisation layer's 1000 (${org}: defaults.timeoutMs); a lower layer may only lower a limit`,
    );
    const overrides = hookFileOverrides({ memoryMb: { value: 16, flag: '--memory-mb' } }, { env });
    expect(overrides).toMatchObject({ limits: { timeoutMs: 1000, memoryMb: 16, maxOutputBytes: 65536, instructionBudget: 1000000 }, failPolicy: 'closed' });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
