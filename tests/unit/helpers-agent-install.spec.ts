import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedAgent } from '../helpers/agent-install.ts';

// A small package with a bin stands in for an agent: the same registry install, in seconds.
const SPEC = 'semver@7.6.3';

describe('installedAgent: registry packages installed once into the agent cache', () => {
  let cache: string;
  const previous = process.env.HOOKBOX_AGENT_CACHE;
  beforeAll(() => {
    cache = mkdtempSync(join(tmpdir(), 'hookbox-agent-cache-'));
    process.env.HOOKBOX_AGENT_CACHE = cache;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.HOOKBOX_AGENT_CACHE;
    else process.env.HOOKBOX_AGENT_CACHE = previous;
    rmSync(cache, { recursive: true, force: true });
  });

  it('installs the exact version, runs its bin, and leaves no staging folder', () => {
    const install = installedAgent(SPEC, 'semver');
    expect(install, JSON.stringify(install)).toMatchObject({ kind: 'installed' });
    if (install.kind !== 'installed') return;
    const run = spawnSync(install.bin, ['--help'], { encoding: 'utf8' });
    expect(run.stdout).toContain('SemVer 7.6.3');
    expect(readdirSync(cache)).toEqual(['semver+7.6.3']);
  }, 300_000);

  it('finds a complete install in the cache without running npm again', () => {
    // With npm unreachable (no PATH, no npm_execpath) only the cache can answer.
    const { PATH, npm_execpath } = process.env;
    process.env.PATH = '';
    delete process.env.npm_execpath;
    try {
      expect(installedAgent(SPEC, 'semver')).toMatchObject({ kind: 'installed', bin: join(cache, 'semver+7.6.3', 'node_modules', '.bin', 'semver') });
    } finally {
      process.env.PATH = PATH;
      if (npm_execpath !== undefined) process.env.npm_execpath = npm_execpath;
    }
  });

  it('replaces an entry left without its marker (an install that died half-way)', () => {
    const broken = join(cache, 'semver+7.6.2');
    mkdirSync(join(broken, 'node_modules'), { recursive: true });
    writeFileSync(join(broken, 'package.json'), '{}');
    const install = installedAgent('semver@7.6.2', 'semver');
    expect(install, JSON.stringify(install)).toMatchObject({ kind: 'installed' });
    expect(existsSync(join(broken, '.hookbox-installed'))).toBe(true);
  }, 300_000);

  it('names what was wrong: a spec that is not exact, a bin the package lacks, a version that does not exist', () => {
    expect(installedAgent('semver@^7', 'semver')).toEqual({ kind: 'unavailable', reason: 'agent package "semver@^7" is not an exact name@version' });
    expect(installedAgent(SPEC, 'no-such-bin')).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('has no bin "no-such-bin"') });
    const missing = installedAgent('semver@0.0.999', 'semver');
    expect(missing).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('npm install semver@0.0.999 exited') });
    expect(readdirSync(cache).filter((name) => name.includes('staging'))).toEqual([]);
  }, 300_000);
});
