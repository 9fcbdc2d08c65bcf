/**
 * The `hookbox` bin runs the esbuild bundle of the CLI (dist/bin/, made by
 * scripts/bundle-cli.mjs at `npm run build`) when it is fresh, else the
 * TypeScript sources through tsx. Here: a bundle made for the test answers
 * exactly as the sources do (help, a hook call through the runner's worker,
 * inspect), and the real bin script switches between the two on a scratch
 * checkout as source files change.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs module without types
import { bundleCli } from '../../scripts/bundle-cli.mjs';
import { exampleManifest } from '../helpers/examples.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = join(ROOT, 'host', 'cli', 'main.ts');
const env = { ...process.env, NO_COLOR: '1' };
let bundleDir: string;
let scratch: string;

/** Runs the CLI's `main` from a module (the bundle's main.js, or main.ts through tsx). */
function runMain(mainModule: string, args: string[], input = '') {
  const script = `const { main } = await import(${JSON.stringify(mainModule)}); process.exitCode = await main(process.argv);`;
  const loader = mainModule.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return spawnSync(process.execPath, [...loader, '--input-type=module', '-e', script, 'hookbox', ...args], { cwd: ROOT, encoding: 'utf8', input, env, timeout: 120_000 });
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hookbox-cli-bundle-'));
  // A package of its own (not this checkout's dist/, which other suites rebuild): the bundle
  // finds hookbox's package.json (the version) and node_modules (its external packages) from where it lies.
  const pkg = join(scratch, 'package');
  bundleDir = join(pkg, 'dist', 'bin');
  mkdirSync(pkg);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'hookbox', version, type: 'module', private: true }));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  await (bundleCli as (root: string, out: string) => Promise<unknown>)(ROOT, bundleDir);
}, 300_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the CLI bundle answers as the sources do', () => {
  it.each(['--help', 'call --help', 'build --help'])('hookbox %s', (line) => {
    const args = line.split(' ');
    const bundled = runMain(join(bundleDir, 'main.js'), args);
    const sources = runMain(SOURCES, args);
    expect(bundled.stderr).toBe('');
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(sources.stdout);
  });

  it('hookbox --help loads no node:child_process: commander gets it on first use (scripts/bundle-cli.mjs)', () => {
    const script = [
      `const { main } = await import(${JSON.stringify(join(bundleDir, 'main.js'))});`,
      'const code = await main(process.argv);',
      "process.stderr.write(JSON.stringify({ code, childProcess: process.moduleLoadList.some((name) => name.includes('child_process')) }));",
    ].join(' ');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, 'hookbox', '--help'], { cwd: ROOT, encoding: 'utf8', env, timeout: 120_000 });
    expect(run.stdout).toContain('Usage: hookbox');
    expect(JSON.parse(run.stderr)).toEqual({ code: 0, childProcess: false });
  });

  it('hookbox call: guard-bash through the runner (worker bootstrap, worker and module prep all from the bundle)', () => {
    const manifest = exampleManifest('guard-bash');
    const payload = join(scratch, 'payload.json');
    writeFileSync(payload, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } }));
    const args = ['call', manifest, '--seam', 'tools/pre-execute', '--payload', payload, '--json'];
    const bundled = runMain(join(bundleDir, 'main.js'), args);
    expect(bundled.stderr).toBe('');
    const { durationMs, ...report } = JSON.parse(bundled.stdout) as { durationMs: number };
    expect(report).toMatchObject({ decision: { action: 'deny' }, fault: null });
    const { durationMs: _sourcesMs, ...fromSources } = JSON.parse(runMain(SOURCES, args).stdout) as { durationMs: number };
    expect(report).toEqual(fromSources);
    expect(durationMs).toBeGreaterThan(0);
  });

  it('hookbox inspect and a bad-input error (exit 2, the message, no stack) match the sources', () => {
    const wasm = join(ROOT, 'examples-hooks', 'guard-bash', 'dist', 'hook.wasm');
    for (const args of [['inspect', wasm, '--json'], ['call', join(scratch, 'missing.wasm'), '--seam', 'tools/pre-execute', '--payload', '-']]) {
      const bundled = runMain(join(bundleDir, 'main.js'), args, '{}');
      const sources = runMain(SOURCES, args, '{}');
      expect({ status: bundled.status, stdout: bundled.stdout, stderr: bundled.stderr }).toEqual({ status: sources.status, stdout: sources.stdout, stderr: sources.stderr });
    }
  });
});

describe('host/cli/hookbox.mjs picks the bundle only while it is fresh', () => {
  function checkout(): { bin: string; main: string } {
    const dir = mkdtempSync(join(scratch, 'checkout-'));
    mkdirSync(join(dir, 'host', 'cli'), { recursive: true });
    mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    for (const file of ['cli/hookbox.mjs', 'fresh-build.mjs', 'cli/compile-cache.cjs']) copyFileSync(join(ROOT, 'host', file), join(dir, 'host', file));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'hookbox-checkout', type: 'module', private: true }));
    const main = join(dir, 'host', 'cli', 'main.ts');
    const answer = (from: string) => `export async function main(argv: readonly string[]): Promise<number> { console.log('${from}', argv.slice(2).join(' ')); return 3; }\n`;
    writeFileSync(main, answer('sources'));
    writeFileSync(join(dir, 'dist', 'bin', 'main.js'), answer('bundle').replace(': readonly string[]', '').replace(': Promise<number>', ''));
    const builtAt = Date.now();
    utimesSync(main, (builtAt - 60_000) / 1000, (builtAt - 60_000) / 1000);
    writeFileSync(join(dir, 'dist', '.build-stamp'), JSON.stringify({ startedAt: builtAt, binInputs: ['host/cli/main.ts'] }));
    return { bin: join(dir, 'host', 'cli', 'hookbox.mjs'), main };
  }

  it('runs dist/bin/main.js, then the sources through tsx once a bundled file is edited', () => {
    const { bin, main } = checkout();
    const fresh = spawnSync(process.execPath, [bin, 'call', 'x'], { encoding: 'utf8', env });
    expect({ stdout: fresh.stdout, status: fresh.status }).toEqual({ stdout: 'bundle call x\n', status: 3 });
    const later = Date.now() / 1000 + 5;
    utimesSync(main, later, later);
    const stale = spawnSync(process.execPath, [bin, 'call', 'x'], { encoding: 'utf8', env });
    expect({ stdout: stale.stdout, status: stale.status }).toEqual({ stdout: 'sources call x\n', status: 3 });
  });
});
