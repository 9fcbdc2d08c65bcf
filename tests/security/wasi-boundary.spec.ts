/**
 * The WASI boundary's escapes (paths, links and the environment), each reproduced against the
 * real runner (worker threads, wasm compiled from WAT or C, real files):
 *
 * 1. a hook granted nothing must not reach the host's file descriptors
 *    through WASI stdio (close → the host reuses the number → the guest
 *    writes into another session's log, or closes it under the host);
 * 2. a path grant must hold against symlinks inside it, a manifest's
 *    symlinked subpath, and writes (grants are read-only unless `write`);
 * 3. an env grant must work for wasi-libc modules reading environ during
 *    `_initialize`.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperatorConfig, specForEntry } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { SessionLogWriter } from '../../host/log/index.ts';
import type { SessionEvent } from '../../host/log/index.ts';
import { compileC } from '../helpers/clang.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { type Fixture, callSeam, healthyDecision, loadCorpus, openFixture } from './harness.ts';

let fx: Fixture;
let dir: string;

beforeAll(async () => {
  fx = await openFixture();
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-wasi-boundary-'));
});

afterAll(async () => {
  await fx.runner.close();
  await rm(dir, { recursive: true, force: true });
});

const event = (n: number): SessionEvent => ({ type: 'turn/start', turn: n, at: `2026-01-01T00:00:0${n}.000Z` });

describe('finding 1: no host fd reaches a guest', () => {
  it('a hook that closed its stdio cannot write into, or close, logs the host opens afterwards', async () => {
    const hook = await loadCorpus(fx.runner, 'fd-hijack');
    const logs: SessionLogWriter[] = [];
    try {
      // The guest closes fds 0 and 1.
      expect((await callSeam(hook, 'tools/pre-execute')).decision).toEqual({ action: 'allow' });
      // The host opens other sessions' logs: with stdio on host fds, two of
      // them take the numbers the guest freed.
      for (let i = 0; i < 16; i++) logs.push(SessionLogWriter.open(path.join(dir, 'fds', `session-${i}.jsonl`)));
      for (const log of logs) log.append(event(1));
      // The guest writes a forged line to fds 2 and 1.
      expect((await callSeam(hook, 'tools/post-execute')).decision).toEqual({ action: 'accept' });
      for (const log of logs) log.append(event(2));
    } finally {
      // Discarding the instance: the SDK closed its stdio numbers again.
      await hook.close();
    }
    try {
      for (const log of logs) log.append(event(3));
    } finally {
      for (const log of logs) log.close();
    }
    for (const log of logs) {
      const lines = readFileSync(log.path, 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => JSON.parse(line) as SessionEvent)).toEqual([event(1), event(2), event(3)]);
    }
    expect(await healthyDecision(fx)).toEqual({ action: 'allow' });
  });

  it("the guest's stdout and stderr reach the hook's log sink, as log lines", async () => {
    const hook = await loadCorpus(fx.runner, 'fd-hijack');
    const before = fx.logs.length;
    try {
      await callSeam(hook, 'tools/post-execute');
      const lines = fx.logs.slice(before).filter((entry) => entry.hook === 'fd-hijack').map((entry) => entry.message);
      expect(lines.filter((line) => line.includes('HOOKBOX-FORGED-LINE'))).toHaveLength(2);
    } finally {
      await hook.close();
    }
  });
});

/** A grant directory holding `inside.txt`, `up -> ..` and `root -> /`, beside `secret.txt`. */
async function grantTree(name: string): Promise<{ base: string; grant: string }> {
  const base = path.join(dir, name);
  const grant = path.join(base, 'grant');
  await mkdir(grant, { recursive: true });
  await writeFile(path.join(base, 'secret.txt'), 'outside the grant\n');
  await writeFile(path.join(grant, 'inside.txt'), 'inside the grant\n');
  await symlink('..', path.join(grant, 'up'));
  await symlink('/', path.join(grant, 'root'));
  return { base, grant };
}

describe('finding 2: path grants hold', () => {
  it('a read-only grant: no read through a directory symlink, no create, no unlink', async () => {
    const { base, grant } = await grantTree('read-only');
    const hook = await loadCorpus(fx.runner, 'path-escape', { capabilities: { allowedPaths: { [grant]: '/data' } } });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault).toBeUndefined();
      expect(result.decision).toEqual({ action: 'allow' });
    } finally {
      await hook.close();
    }
    expect((await readdir(base)).sort()).toEqual(['grant', 'secret.txt']);
    expect((await readdir(grant)).sort()).toEqual(['inside.txt', 'root', 'up']);
  });

  it('a write grant writes inside the grant and still never outside it', async () => {
    const { base, grant } = await grantTree('writable');
    const hook = await loadCorpus(fx.runner, 'path-escape', {
      capabilities: { allowedPaths: { [grant]: { path: '/data', write: true } } },
    });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.decision).toEqual({ action: 'deny', reason: 'wasi leaked: create-inside,unlink-inside' });
    } finally {
      await hook.close();
    }
    expect((await readdir(base)).sort()).toEqual(['grant', 'secret.txt']);
    expect((await readdir(grant)).sort()).toEqual(['inside-created', 'root', 'up']);
  });

  /** An operator config granting `grant/` and a manifest requesting `requested` (relative to the manifest). */
  async function manifestSetup(name: string, requested: Record<string, unknown>, operatorGrant: Record<string, unknown>) {
    const { base, grant } = await grantTree(name);
    const hookDir = path.join(base, 'hook');
    await mkdir(hookDir);
    const wasmFile = await writeCorpusWasm('path-escape', hookDir);
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(readFileSync(wasmFile)).digest('hex');
    const manifest = path.join(hookDir, 'hook.json');
    await writeFile(
      manifest,
      JSON.stringify({ name: 'path-escape', version: '1', wasm: 'path-escape.wasm', sha256, seams: ['tools/pre-execute'], capabilities: { allowedPaths: requested } }),
    );
    const configFile = path.join(base, 'hookbox.config.json');
    await writeFile(configFile, JSON.stringify({ hooks: [{ name: 'path-escape', manifest: 'hook/hook.json', grant: { allowedPaths: operatorGrant } }] }));
    return { base, grant, manifest, configFile };
  }

  it("a manifest's subpath of the grant that is a symlink out of it is refused, naming both files", async () => {
    const { manifest, configFile } = await manifestSetup('manifest-link', { '../grant/root': '/data' }, { grant: '/data' });
    const config = loadOperatorConfig(configFile);
    const entry = config.hooks[0];
    if (entry === undefined) throw new Error('no entry');
    let spec: ReturnType<typeof specForEntry> | undefined;
    let error: unknown;
    try {
      spec = specForEntry(config.file, entry);
    } catch (caught) {
      error = caught;
    }
    if (spec !== undefined) {
      // Today's check kept it: show what the hook then reads.
      const hook = await fx.runner.load(spec);
      try {
        const result = await callSeam(hook, 'tools/pre-execute');
        expect.fail(`the symlinked subpath was mounted: ${JSON.stringify(result.decision)}`);
      } finally {
        await hook.close();
      }
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(manifest);
    expect(message).toContain(configFile);
    expect(message).toMatch(/capabilities\.allowedPaths/);
    expect(message).toMatch(/resolves to \/, outside the grant/);
  });

  it('a manifest asking write where the operator grants read-only is an error naming both files and the field', async () => {
    const { manifest, configFile } = await manifestSetup('manifest-write', { '../grant': { path: '/data', write: true } }, { grant: '/data' });
    const config = loadOperatorConfig(configFile);
    const entry = config.hooks[0];
    if (entry === undefined) throw new Error('no entry');
    expect(() => specForEntry(config.file, entry)).toThrow(ConfigError);
    expect(() => specForEntry(config.file, entry)).toThrow(manifest);
    expect(() => specForEntry(config.file, entry)).toThrow(new RegExp(`${configFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*hooks\\[0\\]\\.grant\\.allowedPaths`));
    expect(() => specForEntry(config.file, entry)).toThrow(/"write": true/);
  });

  it('an operator grant with "write": true lets the manifest ask for write', async () => {
    const { grant, configFile } = await manifestSetup('manifest-write-ok', { '../grant': { path: '/data', write: true } }, { grant: { path: '/data', write: true } });
    const config = loadOperatorConfig(configFile);
    const entry = config.hooks[0];
    if (entry === undefined) throw new Error('no entry');
    const hook = await fx.runner.load(specForEntry(config.file, entry));
    try {
      expect((await callSeam(hook, 'tools/pre-execute')).decision).toEqual({ action: 'deny', reason: 'wasi leaked: create-inside,unlink-inside' });
    } finally {
      await hook.close();
    }
    expect((await readdir(grant)).sort()).toEqual(['inside-created', 'root', 'up']);
  });
});

describe('finding 7 (env): an env grant works for wasi-libc modules reading environ in _initialize', () => {
  const source = fileURLToPath(new URL('./c/env-init.c', import.meta.url));

  it('the granted variable is visible to a C constructor, and nothing else is', async () => {
    const wasm = await compileC(source);
    process.env.HOOKBOX_INIT_ENV = 'granted-value';
    try {
      const granted = await fx.runner.load({ name: 'env-init', wasm, capabilities: { env: ['HOOKBOX_INIT_ENV'] } });
      try {
        expect((await callSeam(granted, 'tools/pre-execute')).decision).toEqual({ action: 'deny', reason: 'init saw: granted-value' });
      } finally {
        await granted.close();
      }
      const ungranted = await fx.runner.load({ name: 'env-init', wasm: await compileC(source) });
      try {
        expect((await callSeam(ungranted, 'tools/pre-execute')).decision).toEqual({ action: 'deny', reason: 'init saw: (unset)' });
      } finally {
        await ungranted.close();
      }
    } finally {
      delete process.env.HOOKBOX_INIT_ENV;
    }
  }, 120_000);
});
