/**
 * `resolveOperatorConfig`: a parsed config's hooks with the defaults (the
 * file's own over those inherited from the layers above) applied and every
 * path made absolute against the config file. Each result compared whole,
 * once with every optional field set and once with none.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOperatorConfig, resolveGrantPaths } from '../../host/config/index.ts';
import { resolveOperatorConfig } from '../../host/config/operator-config.ts';
import { ConfigError } from '../../host/errors.ts';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-resolve-'));
  file = path.join(dir, 'hookbox.config.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function load(config: Record<string, unknown>) {
  writeFileSync(file, JSON.stringify(config));
  return loadOperatorConfig(file);
}

const SHA = 'b'.repeat(64);
const at = (...parts: string[]) => path.join(dir, ...parts);

describe('resolveOperatorConfig', () => {
  it('with every setting: the hook wins over the defaults, paths resolve against the file, each kind keeps its own fields', () => {
    const config = load({
      defaults: {
        timeoutMs: 300,
        memoryMb: 16,
        maxOutputBytes: 4096,
        instructionBudget: 1000,
        failPolicy: 'open',
        config: { shared: '1', own: 'default' },
        grant: { allowedPaths: { shared: '/s' }, env: ['LANG'] },
        quarantineAfter: 4,
        memoryBudgetMb: 256,
      },
      hooks: [
        {
          name: 'w',
          wasm: 'w.wasm',
          protocol: 'claude-code',
          seams: ['tools/pre-execute'],
          tools: ['bash'],
          timeoutMs: 100,
          memoryMb: 8,
          maxOutputBytes: 1024,
          instructionBudget: 500,
          failPolicy: 'closed',
          config: { own: 'mine' },
          grant: { allowedPaths: { data: { path: '/d', write: true } }, clock: true },
          quarantineAfter: 2,
          pin: { sha256: SHA },
        },
        { name: 'm', manifest: 'sub/hook.json', timeoutMs: 50 },
        { name: 'c', command: './guard.sh', unsandboxed: true, protocol: 'codex', seams: ['tools/post-execute'], sources: ['resume'], env: { A: '1' } },
        { name: 'p', permissions: { deny: ['Read(.env)'], root: 'project' } },
      ],
    });
    const inherited = {
      limits: { timeoutMs: 300, memoryMb: 16, maxOutputBytes: 4096, instructionBudget: 1000 },
      failPolicy: 'open',
      config: { shared: '1', own: 'default' },
      grant: { allowedPaths: { [at('shared')]: '/s' }, env: ['LANG'] },
      quarantineAfter: 4,
    };
    expect(config).toStrictEqual({
      file,
      hooks: [
        {
          name: 'w',
          file,
          at: 'hooks[0]',
          wasm: at('w.wasm'),
          protocol: 'claude-code',
          seams: ['tools/pre-execute'],
          tools: ['bash'],
          limits: { timeoutMs: 100, memoryMb: 8, maxOutputBytes: 1024, instructionBudget: 500 },
          failPolicy: 'closed',
          config: { shared: '1', own: 'mine' },
          grant: { allowedPaths: { [at('data')]: { path: '/d', write: true } }, clock: true },
          quarantineAfter: 2,
          pin: { sha256: SHA },
          signals: {},
        },
        { name: 'm', file, at: 'hooks[1]', manifest: at('sub', 'hook.json'), ...inherited, limits: { ...inherited.limits, timeoutMs: 50 }, signals: {} },
        { name: 'c', file, at: 'hooks[2]', command: './guard.sh', protocol: 'codex', sources: ['resume'], env: { A: '1' }, seams: ['tools/post-execute'], ...inherited, signals: {} },
        { name: 'p', file, at: 'hooks[3]', permissions: { deny: ['Read(.env)'], root: at('project') }, ...inherited, signals: {} },
      ],
      runner: { memoryBudgetMb: 256 },
      signals: {},
    });
  });

  it('with no setting: no optional field, empty limits, config and grant, no runner options', () => {
    expect(load({ hooks: [{ name: 'a', wasm: 'a.wasm' }] })).toStrictEqual({
      file,
      hooks: [{ name: 'a', file, at: 'hooks[0]', wasm: at('a.wasm'), limits: {}, config: {}, grant: {}, signals: {} }],
      runner: {},
      signals: {},
    });
  });

  it("inherited defaults fill what the file's own leave unset (an undefined value included); config is never inherited", () => {
    const inherited = { timeoutMs: 50, maxOutputBytes: 99, failPolicy: 'closed' as const, grant: { allowedPaths: { '/org/shared': '/s' } }, quarantineAfter: 3, memoryBudgetMb: 64 };
    const resolved = resolveOperatorConfig({ hooks: [{ name: 'a', wasm: 'a.wasm' }], defaults: { timeoutMs: undefined, memoryMb: 8, config: { k: 'v' } } }, file, inherited);
    expect(resolved).toStrictEqual({
      file,
      hooks: [
        {
          name: 'a',
          file,
          at: 'hooks[0]',
          wasm: at('a.wasm'),
          limits: { timeoutMs: 50, memoryMb: 8, maxOutputBytes: 99 },
          failPolicy: 'closed',
          config: { k: 'v' },
          grant: { allowedPaths: { '/org/shared': '/s' } },
          quarantineAfter: 3,
          signals: {},
        },
      ],
      runner: { memoryBudgetMb: 64 },
      signals: {},
    });
    // The file's own grant replaces the inherited one, resolved against the file.
    const own = resolveOperatorConfig({ hooks: [{ name: 'a', wasm: 'a.wasm' }], defaults: { grant: { allowedPaths: { mine: '/m' } } } }, file, inherited);
    expect(own.hooks[0]?.grant).toStrictEqual({ allowedPaths: { [at('mine')]: '/m' } });
  });

  it('a hook name used twice names both entries', () => {
    const duplicate = () => load({ hooks: [{ name: 'a', wasm: 'a.wasm' }, { name: 'b', wasm: 'b.wasm' }, { name: 'a', wasm: 'c.wasm' }] });
    expect(duplicate).toThrow(ConfigError);
    expect(duplicate).toThrow(new ConfigError(`${file}: hooks[2].name: "a" is already used by hooks[0]; hook names must be unique`));
  });
});

describe('resolveGrantPaths', () => {
  it('resolves host paths against the directory, keeping guest paths and the other capabilities', () => {
    expect(resolveGrantPaths({ allowedPaths: { rel: '/r', '/abs': { path: '/a', write: true } }, env: ['A'], clock: true }, '/base')).toStrictEqual({
      allowedPaths: { '/base/rel': '/r', '/abs': { path: '/a', write: true } },
      env: ['A'],
      clock: true,
    });
    expect(resolveGrantPaths({ allowedHosts: ['a.example.com'] }, '/base')).toStrictEqual({ allowedHosts: ['a.example.com'] });
  });
});
