import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHookFile, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError, HookLoadError } from '../../host/errors.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { compileWat, writeCorpusWasm } from '../helpers/wat.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-config-'));
  await writeCorpusWasm('allow', dir);
  await writeCorpusWasm('deny', dir);
  await writeCorpusWasm('missing-export', dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(content: unknown, name = 'hookbox.config.json'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('operator config errors name the file, the JSON path and what was expected', () => {
  // Found by tests/fuzz/config.fuzz.ts: "__proto__" became the parsed object's
  // prototype, so its contents were read as config and the key was never refused.
  it('a "__proto__" key is an unknown key like any other, never the config\'s prototype', async () => {
    const hidden = await configFile('{"__proto__": {"hooks": [{"name": "a", "wasm": "allow.wasm"}]}, "hooks": []}');
    expect(errorOf(() => loadOperatorConfig(hidden)).message).toBe(`${hidden}: (root): Unrecognized key: "__proto__"`);
    const nested = await configFile('{"hooks": [{"name": "a", "wasm": "allow.wasm", "__proto__": {"timeoutMs": 5}}]}');
    const error = errorOf(() => loadOperatorConfig(nested));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${nested}: hooks[0]: Unrecognized key: "__proto__"`);
  });


  it('invalid JSON: line and column', async () => {
    const file = await configFile('{\n  "hooks": [\n    {"name": "a",}\n  ]\n}');
    const error = errorOf(() => loadOperatorConfig(file));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^${escape(file)}:3:18: invalid JSON`));
  });

  it('a bad limit: hooks[1].timeoutMs', async () => {
    const file = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm' }, { name: 'b', wasm: 'deny.wasm', timeoutMs: -5 }] });
    const error = errorOf(() => loadOperatorConfig(file));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(new RegExp(`^${escape(file)}: hooks\\[1\\]\\.timeoutMs: .*>0`));
  });

  it('unknown seam, unknown key, both wasm and manifest, duplicate names', async () => {
    const seam = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm', seams: ['tools/pre'] }] });
    expect(errorOf(() => loadOperatorConfig(seam)).message).toMatch(/hooks\[0\]\.seams\[0\]: .*"tools\/pre-execute"/);
    const key = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm', timeout: 5 }] });
    expect(errorOf(() => loadOperatorConfig(key)).message).toMatch(/hooks\[0\]: Unrecognized key: "timeout"/);
    const both = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm', manifest: 'hook.json' }] });
    expect(errorOf(() => loadOperatorConfig(both)).message).toMatch(/hooks\[0\]: expected exactly one of "wasm" .* or "manifest"/);
    const dup = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm' }, { name: 'a', wasm: 'deny.wasm' }] });
    expect(errorOf(() => loadOperatorConfig(dup)).message).toMatch(/hooks\[1\]\.name: "a" is already used by hooks\[0\]/);
    const config = await configFile({ hooks: [{ name: 'a', wasm: 'allow.wasm', config: { n: 5 } }] });
    expect(errorOf(() => loadOperatorConfig(config)).message).toMatch(/hooks\[0\]\.config\.n: .*string/);
  });

  it('resolves paths against the config file and applies defaults under per-hook settings', async () => {
    const file = await configFile({
      defaults: { timeoutMs: 250, failPolicy: 'open', config: { shared: '1' } },
      hooks: [{ name: 'a', wasm: 'allow.wasm', timeoutMs: 500, config: { own: '2' } }, { name: 'b', wasm: 'deny.wasm' }],
    });
    const config = loadOperatorConfig(file);
    expect(config.hooks.map((h) => [h.name, h.wasm, h.limits.timeoutMs, h.failPolicy])).toEqual([
      ['a', path.join(dir, 'allow.wasm'), 500, 'open'],
      ['b', path.join(dir, 'deny.wasm'), 250, 'open'],
    ]);
    expect(config.hooks[0]?.config).toEqual({ shared: '1', own: '2' });
  });
});

describe('loadHooks', () => {
  it('loads hooks in composition order; without seams a hook handles what it exports', async () => {
    const file = await configFile({
      hooks: [
        { name: 'deny', wasm: 'deny.wasm', seams: ['tools/pre-execute'], tools: ['bash'] },
        { name: 'allow', wasm: 'allow.wasm', failPolicy: 'open' },
      ],
    });
    const runner = await HookRunner.start({ workers: 1 });
    try {
      const hooks = await loadHooks(loadOperatorConfig(file), runner);
      expect(hooks.map((h) => h.name)).toEqual(['deny', 'allow']);
      expect(hooks[0]?.seams).toEqual(['tools/pre-execute']);
      expect(hooks[0]?.tools).toEqual(['bash']);
      expect(hooks[1]?.seams).toHaveLength(5);
      expect(hooks[1]?.failPolicy).toBe('open');
      expect(hooks[1]?.digest).toBe(createHash('sha256').update(await compileWat('allow')).digest('hex'));
    } finally {
      await runner.close();
    }
  });

  it('a seam the module does not export is a clear load error', async () => {
    const file = await configFile({ hooks: [{ name: 'post-only', wasm: 'missing-export.wasm', seams: ['tools/pre-execute'] }] });
    const runner = await HookRunner.start({ workers: 1 });
    try {
      const load = loadHooks(loadOperatorConfig(file), runner);
      await expect(load).rejects.toBeInstanceOf(HookLoadError);
      await expect(load).rejects.toThrow(/missing-export\.wasm: hook "post-only" is configured for tools\/pre-execute but the module does not export "pre_tool"/);
    } finally {
      await runner.close();
    }
  });

  it('a manifest pins the sha256, narrows seams and declares config keys', async () => {
    const sha256 = createHash('sha256').update(await compileWat('allow')).digest('hex');
    const manifest = { name: 'allow-hook', version: '1.0.0', wasm: 'allow.wasm', sha256, seams: ['tools/pre-execute'], config: { mode: 'how strict' } };
    await writeFile(path.join(dir, 'hook.json'), JSON.stringify(manifest));
    const good = await configFile({ hooks: [{ name: 'guard', manifest: 'hook.json', config: { mode: 'strict' } }] });
    const runner = await HookRunner.start({ workers: 1 });
    try {
      const [hook] = await loadHooks(loadOperatorConfig(good), runner);
      expect(hook?.seams).toEqual(['tools/pre-execute']);
      expect(hook?.exports).toHaveLength(5);

      const typo = await configFile({ hooks: [{ name: 'guard', manifest: 'hook.json', config: { mood: 'strict' } }] }, 'typo.json');
      await expect(loadHooks(loadOperatorConfig(typo), runner)).rejects.toThrow(/typo\.json: hooks\[0\]\.config: "mood" not a config key of hook "allow-hook" \(declared: mode\)/);

      const extra = await configFile({ hooks: [{ name: 'guard', manifest: 'hook.json', seams: ['tools/post-execute'] }] }, 'extra.json');
      await expect(loadHooks(loadOperatorConfig(extra), runner)).rejects.toThrow(/hooks\[0\]\.seams: tools\/post-execute not handled by the hook/);

      await writeFile(path.join(dir, 'bad-manifest.json'), JSON.stringify({ ...manifest, sha256: 'nope' }));
      expect(() => loadHookFile(path.join(dir, 'bad-manifest.json'))).toThrow(/bad-manifest\.json: sha256: a 64-digit lowercase hex sha256/);
    } finally {
      await runner.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
