/**
 * How the layers are found and merged, compared whole: the layer files and
 * where each path came from, the organisation's lane, the log setting, the
 * origin of every setting (`config explain`), the locks (the highest layer's
 * wins), and the defaults `hookbox call` runs a hook file with. Real files in
 * a temp folder; the environment is passed in, never the machine's own.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { explainConfig, hookFileOverrides, layerFiles, loadLayeredConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

let root: string;
let env: NodeJS.ProcessEnv;
let org: string;
let user: string;
let project: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-layer-merge-')));
  for (const dir of ['org', 'home/.config/hookbox', 'project']) mkdirSync(path.join(root, dir), { recursive: true });
  org = path.join(root, 'org', 'config.json');
  user = path.join(root, 'home', '.config', 'hookbox', 'config.json');
  project = path.join(root, 'project', 'hookbox.config.json');
  env = { HOME: path.join(root, 'home'), HOOKBOX_ORG_CONFIG: org };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, config: unknown): void {
  writeFileSync(file, JSON.stringify(config));
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

const load = () => loadLayeredConfig({ project, env });
const origin = (layer: string, file: string, at: string) => ({ layer, file, at });

describe('layerFiles', () => {
  it('each file with how its path was chosen; a named project file is a layer even before it exists', () => {
    write(org, { hooks: [] });
    expect(layerFiles({ project, env: { ...env, XDG_CONFIG_HOME: path.join(root, 'xdg') } })).toStrictEqual([
      { layer: 'organisation', file: org, from: 'HOOKBOX_ORG_CONFIG', present: true },
      { layer: 'user', file: path.join(root, 'xdg', 'hookbox', 'config.json'), from: '$XDG_CONFIG_HOME', present: false },
      { layer: 'project', file: project, from: '--config', present: true },
    ]);
  });

  it('unset or empty variables: the default organisation file, the user file under HOME, else the home directory', () => {
    write(user, { hooks: [] });
    expect(layerFiles({ env: { HOME: path.join(root, 'home'), HOOKBOX_ORG_CONFIG: '', XDG_CONFIG_HOME: '' } })).toStrictEqual([
      { layer: 'organisation', file: '/etc/hookbox/config.json', from: 'default', present: existsSync('/etc/hookbox/config.json') },
      { layer: 'user', file: user, from: '~/.config', present: true },
    ]);
    const fallback = path.join(homedir(), '.config', 'hookbox', 'config.json');
    expect(layerFiles({ env: { HOME: '' } })[1]).toStrictEqual({ layer: 'user', file: fallback, from: '~/.config', present: existsSync(fallback) });
  });

  it('a relative HOOKBOX_ORG_CONFIG resolves against the working directory; without options, the process environment is read', () => {
    write(org, { hooks: [] });
    expect(layerFiles({ env: { ...env, HOOKBOX_ORG_CONFIG: path.relative(process.cwd(), org) } })[0]).toStrictEqual({
      layer: 'organisation',
      file: org,
      from: 'HOOKBOX_ORG_CONFIG',
      present: true,
    });
    // vitest.config.ts points both at hermetic places for every test.
    expect(layerFiles().map((layer) => [layer.file, layer.from])).toStrictEqual([
      [process.env.HOOKBOX_ORG_CONFIG, 'HOOKBOX_ORG_CONFIG'],
      [path.join(process.env.XDG_CONFIG_HOME as string, 'hookbox', 'config.json'), '$XDG_CONFIG_HOME'],
    ]);
  });

  it('a file reached as two layers is present once, as the higher; an absent file shadows nothing', () => {
    write(org, { hooks: [] });
    symlinkSync(org, user);
    expect(layerFiles({ env })[1]).toStrictEqual({ layer: 'user', file: user, from: '~/.config', present: false, shadowedBy: 'organisation' });
    rmSync(user);
    expect(layerFiles({ project: user, env }).slice(1)).toStrictEqual([
      { layer: 'user', file: user, from: '~/.config', present: false },
      { layer: 'project', file: user, from: '--config', present: true },
    ]);
  });
});

describe('loadLayeredConfig', () => {
  it("the organisation's hooks run in a lane of their own; the runner budget and the log setting of the nearest layer that sets them", () => {
    write(org, { hooks: [{ name: 'guard', wasm: 'g.wasm' }], log: { keepReplacedOriginals: true }, defaults: { memoryBudgetMb: 128 } });
    write(project, { hooks: [{ name: 'local', wasm: 'l.wasm' }] });
    const config = load();
    expect(config.hooks).toStrictEqual([
      { name: 'guard', file: org, at: 'hooks[0]', wasm: path.join(root, 'org', 'g.wasm'), limits: {}, config: {}, grant: {}, signals: {}, lane: 'organisation' },
      { name: 'local', file: project, at: 'hooks[0]', wasm: path.join(root, 'project', 'l.wasm'), limits: {}, config: {}, grant: {}, signals: {} },
    ]);
    expect(config.runner).toStrictEqual({ memoryBudgetMb: 128 });
    expect(config.log).toStrictEqual({ keepReplacedOriginals: true });
    write(project, { hooks: [], log: { keepReplacedOriginals: false } });
    expect(load().log).toStrictEqual({ keepReplacedOriginals: false });
    write(org, { hooks: [] });
    write(project, { hooks: [], log: {} });
    expect(load()).toMatchObject({ runner: {}, log: { keepReplacedOriginals: false } });
  });

  it('the origin of every setting: the entry, its layer\'s defaults, or a higher layer\'s; config names both of its parts', () => {
    write(org, { hooks: [{ name: 'o', wasm: 'o.wasm' }], defaults: { maxOutputBytes: 4096, failPolicy: 'closed' } });
    write(user, { hooks: [{ name: 'u', wasm: 'u.wasm', config: { k: 'v' } }] });
    write(project, {
      defaults: { memoryMb: 8, config: { shared: '1' } },
      hooks: [
        { name: 'w', wasm: 'w.wasm', protocol: 1, seams: ['tools/pre-execute'], tools: ['bash'], timeoutMs: 10, instructionBudget: 99, config: { own: '2' } },
        { name: 'c', command: 'x', unsandboxed: true, protocol: 'codex', seams: ['tools/pre-execute'], sources: ['startup'], env: { A: '1' } },
        { name: 'p', permissions: { root: '.' } },
        { name: 'm', manifest: 'hook.json', grant: { env: ['A'] }, quarantineAfter: 2 },
      ],
    });
    const O = (at: string) => origin('organisation', org, at);
    const U = (at: string) => origin('user', user, at);
    const P = (at: string) => origin('project', project, at);
    const inherited = { memoryMb: P('defaults.memoryMb'), maxOutputBytes: O('defaults.maxOutputBytes'), failPolicy: O('defaults.failPolicy'), config: P('defaults.config') };
    expect(load().explained.map((hook) => [hook.entry.name, hook.layer, hook.origins])).toStrictEqual([
      ['o', 'organisation', { wasm: O('hooks[0].wasm'), maxOutputBytes: O('defaults.maxOutputBytes'), failPolicy: O('defaults.failPolicy') }],
      ['u', 'user', { wasm: U('hooks[0].wasm'), maxOutputBytes: O('defaults.maxOutputBytes'), failPolicy: O('defaults.failPolicy'), config: U('hooks[0].config') }],
      [
        'w',
        'project',
        {
          ...inherited,
          wasm: P('hooks[0].wasm'),
          protocol: P('hooks[0].protocol'),
          seams: P('hooks[0].seams'),
          tools: P('hooks[0].tools'),
          timeoutMs: P('hooks[0].timeoutMs'),
          instructionBudget: P('hooks[0].instructionBudget'),
          config: P('defaults.config + hooks[0].config'),
        },
      ],
      [
        'c',
        'project',
        { ...inherited, command: P('hooks[1].command'), protocol: P('hooks[1].protocol'), seams: P('hooks[1].seams'), sources: P('hooks[1].sources'), env: P('hooks[1].env') },
      ],
      ['p', 'project', { ...inherited, permissions: P('hooks[2].permissions') }],
      ['m', 'project', { ...inherited, manifest: P('hooks[3].manifest'), grant: P('hooks[3].grant'), quarantineAfter: P('hooks[3].quarantineAfter') }],
    ]);
  });

  it('explainConfig: each set value with its origin (empty config and grant left out), the defaults passed down, the locks (the highest layer\'s)', () => {
    write(org, { hooks: [{ name: 'g', wasm: 'g.wasm', config: { k: 'v' } }], defaults: { timeoutMs: 100, grant: { env: ['A'] } }, locked: ['defaults.memoryMb'] });
    write(user, { hooks: [{ name: 'bare', wasm: 'b.wasm', config: {}, grant: {} }], locked: ['defaults.memoryMb', 'hooks'] });
    const O = (at: string) => origin('organisation', org, at);
    const U = (at: string) => origin('user', user, at);
    const layered = loadLayeredConfig({ env });
    expect(explainConfig(layered)).toStrictEqual({
      layers: layered.layers,
      hooks: [
        {
          name: 'g',
          layer: 'organisation',
          file: org,
          at: 'hooks[0]',
          settings: {
            wasm: { value: path.join(root, 'org', 'g.wasm'), ...O('hooks[0].wasm') },
            timeoutMs: { value: 100, ...O('defaults.timeoutMs') },
            config: { value: { k: 'v' }, ...O('hooks[0].config') },
            grant: { value: { env: ['A'] }, ...O('defaults.grant') },
          },
        },
        { name: 'bare', layer: 'user', file: user, at: 'hooks[0]', settings: { wasm: { value: path.join(root, 'home', '.config', 'hookbox', 'b.wasm'), ...U('hooks[0].wasm') }, timeoutMs: { value: 100, ...O('defaults.timeoutMs') } } },
      ],
      defaults: { timeoutMs: { value: 100, ...O('defaults.timeoutMs') }, grant: { value: { env: ['A'] }, ...O('defaults.grant') } },
      locked: { 'defaults.memoryMb': O('locked[0]'), hooks: U('locked[1]') },
    });
  });
});

describe('what a lower layer may set', () => {
  beforeEach(() => write(org, { hooks: [], defaults: { timeoutMs: 100, memoryBudgetMb: 64, failPolicy: 'closed' } }));

  it('a limit equal to the bound, "closed" under "closed", an empty hook list under a hooks lock', () => {
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', timeoutMs: 100, failPolicy: 'closed' }], defaults: { memoryBudgetMb: 64 } });
    expect(load().hooks[0]).toMatchObject({ limits: { timeoutMs: 100 }, failPolicy: 'closed' });
    write(org, { hooks: [], locked: ['hooks'] });
    write(project, { hooks: [] });
    expect(load().hooks).toStrictEqual([]);
  });

  it.each([
    ['memoryMb', 8],
    ['maxOutputBytes', 10],
    ['instructionBudget', 10],
    ['grant', { env: ['A'] }],
    ['memoryBudgetMb', 8],
    ['failPolicy', 'closed'],
  ])('not %s when a higher layer locks it', (key, value) => {
    write(org, { hooks: [], locked: ['defaults.timeoutMs', `defaults.${key}`] });
    write(project, { hooks: [], defaults: { [key]: value } });
    expect(refusal(load)).toBe(`${project}: defaults.${key}: the organisation layer locks ${key} (${org}: locked[1]); a lower layer cannot set it`);
  });
});

describe('hookFileOverrides', () => {
  it("the organisation's and user's defaults, not the project's; a flag within them replaces its limit", () => {
    write(org, { hooks: [], defaults: { timeoutMs: 1000, memoryMb: 64, failPolicy: 'closed', grant: { env: ['A'] }, quarantineAfter: 3, memoryBudgetMb: 512 } });
    write(project, { hooks: [], defaults: { timeoutMs: 5 } });
    expect(hookFileOverrides({ memoryMb: { value: 16, flag: '--memory-mb' } }, { project, env })).toStrictEqual({
      limits: { timeoutMs: 1000, memoryMb: 16 },
      failPolicy: 'closed',
      grant: { env: ['A'] },
      quarantineAfter: 3,
    });
  });

  it('without defaults: the flags alone', () => {
    write(org, { hooks: [] });
    expect(hookFileOverrides({}, { env })).toStrictEqual({ limits: {} });
    expect(hookFileOverrides({ timeoutMs: { value: 7, flag: '--timeout-ms' } }, { env })).toStrictEqual({ limits: { timeoutMs: 7 } });
  });

  it('a flag for a locked limit names the flag and the lock', () => {
    write(org, { hooks: [], locked: ['defaults.timeoutMs'] });
    expect(refusal(() => hookFileOverrides({ timeoutMs: { value: 7, flag: '--timeout-ms' } }, { env }))).toBe(
      `the command line: --timeout-ms: the organisation layer locks timeoutMs (${org}: locked[0]); a lower layer cannot set it`,
    );
  });
});
