/**
 * Hook packages end to end with the real bin and the real npm: `hookbox pack`
 * makes a tarball of an example hook, `hookbox add` installs it (tarball and
 * folder) into `.hookbox/packages` and pins it, `hookbox run` uses it, and a
 * changed wasm is refused by `verify` and `run` with both digests. Nothing is
 * published and nothing reaches the network: npm runs `--offline` with a
 * scratch cache and a registry address nothing listens on.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorConfigSchema } from '../../host/config/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { skipUnless } from '../helpers/skips.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
const GUARD = exampleManifest('guard-bash');
const GUARD_SHA = (JSON.parse(readFileSync(GUARD, 'utf8')) as { sha256: string }).sha256;
const INSTALLED = path.join('.hookbox', 'packages', 'node_modules', '@acme', 'guard-bash');

let scratch: string;
let env: NodeJS.ProcessEnv;
let tarball: string;
let folder: string;

function hookbox(args: readonly string[], cwd: string, input = '') {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', input, timeout: 120_000 });
}

/** A fresh project folder with a scripted model that asks for `rm -rf /`. */
function project(name: string): string {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const script = { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf /' } }] }, { text: 'done' }] };
  writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
  return dir;
}

function run(dir: string) {
  return hookbox(['run', '--config', 'hookbox.config.json', '--script', 'script.json', '--log', 'session.jsonl', '--cwd', dir, 'clean up'], dir);
}

function config(dir: string) {
  return OperatorConfigSchema.parse(JSON.parse(readFileSync(path.join(dir, 'hookbox.config.json'), 'utf8')));
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'hookbox-packages-'));
  env = {
    ...process.env,
    NO_COLOR: '1',
    npm_config_cache: path.join(scratch, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_registry: 'http://127.0.0.1:9/',
    // No organisation or user layer from this machine.
    HOOKBOX_ORG_CONFIG: '',
    XDG_CONFIG_HOME: path.join(scratch, 'xdg'),
  };
  const packed = hookbox(
    ['pack', GUARD, '--package-name', '@acme/guard-bash', '--package-version', '1.2.0', '-o', path.join(scratch, 'out'), '--folder', path.join(scratch, 'folder'), '--json'],
    scratch,
  );
  expect(packed.stderr).toBe('');
  expect(packed.status).toBe(0);
  const result = JSON.parse(packed.stdout) as { tarball: string; folder: string };
  tarball = result.tarball;
  folder = result.folder;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Every step runs the real bin and npm (seconds each on a busy two-core machine).
const SLOW = { timeout: 240_000 };

describe('hookbox pack', SLOW, () => {
  it('makes an npm tarball whose package.json names the hook, with the wasm and the manifest pinning it', () => {
    expect(path.basename(tarball)).toBe('acme-guard-bash-1.2.0.tgz');
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
    expect(listed).toEqual(['package/README.md', 'package/dist/hook.json', 'package/dist/hook.wasm', 'package/package.json']);
    const pkg = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: '@acme/guard-bash', version: '1.2.0', hookbox: { hooks: ['dist/hook.json'] } });
    expect(pkg).not.toHaveProperty('scripts');
    expect(pkg).not.toHaveProperty('dependencies');
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', tarball, 'package/dist/hook.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'guard-bash', version: '1.2.0', wasm: 'hook.wasm', sha256: GUARD_SHA });
  });

  it('builds a hook project from source (the same bytes as the example build) when given its folder', () => {
    const out = path.join(scratch, 'from-source');
    const packed = hookbox(['pack', path.dirname(path.dirname(GUARD)), '-o', out, '--json'], scratch);
    expect(packed.status).toBe(0);
    expect(JSON.parse(packed.stdout)).toMatchObject({
      tarball: path.join(out, 'guard-bash-0.0.0.tgz'),
      package: { name: 'guard-bash', version: '0.0.0' },
      hooks: [{ name: 'guard-bash', sha256: GUARD_SHA, seams: ['tools/pre-execute'] }],
    });
  });

  it('bad input is exit 2 with one line naming what was wrong', () => {
    const missing = hookbox(['pack', path.join(scratch, 'nope')], scratch);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(`hookbox: ${path.join(scratch, 'nope')}: no such hook project folder or hook.json`);
    const version = hookbox(['pack', GUARD, '--package-version', 'latest', '-o', scratch], scratch);
    expect(version.status).toBe(2);
    expect(version.stderr).toContain('package version "latest": expected a semver version');
    // Usage errors too, so that verify's exit 1 (a hook changed) and add's (declined) mean only that.
    for (const [args, line] of [
      [['add'], "error: missing required argument 'package'"],
      [['verify', '--bogus'], "error: unknown option '--bogus'"],
      [['pack', '--entry'], "error: option '--entry <file>' argument missing"],
    ] as const) {
      const usage = hookbox(args, scratch);
      expect(usage.status, args.join(' ')).toBe(2);
      expect(usage.stderr.trim(), args.join(' ')).toBe(line);
    }
  });
});

describe('hookbox add, run and verify', SLOW, () => {
  it('adds a packed tarball pinned by name, version and sha256, and run uses the hook', () => {
    const dir = project('tarball');
    const added = hookbox(['add', tarball, '--yes', '--offline'], dir);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain('package @acme/guard-bash@1.2.0');
    expect(added.stdout).toContain('seams:        tools/pre-execute');
    expect(added.stdout).toContain('capabilities: none requested');
    expect(added.stdout).toContain(`added guard-bash (hooks[0]) pinned to @acme/guard-bash@1.2.0 sha256 ${GUARD_SHA}`);
    expect(config(dir).hooks).toEqual([
      {
        name: 'guard-bash',
        manifest: '.hookbox/packages/node_modules/@acme/guard-bash/dist/hook.json',
        pin: { package: '@acme/guard-bash', version: '1.2.0', sha256: GUARD_SHA, manifest: expect.objectContaining({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }) },
      },
    ]);
    const lock = JSON.parse(readFileSync(path.join(dir, '.hookbox', 'packages', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(lock.dependencies)).toEqual(['@acme/guard-bash']);

    const session = run(dir);
    expect(session.stderr).toBe('');
    expect(session.status).toBe(0);
    expect(session.stdout).toContain('hook guard-bash tools/pre-execute deny');
    const verified = hookbox(['verify', '--json'], dir);
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, hooks: [{ name: 'guard-bash', status: 'ok', sha256: GUARD_SHA }] });
  });

  it('adds a package folder as a copy (not a link to the folder), and run uses it', () => {
    const dir = project('from-folder');
    const added = hookbox(['add', folder, '--yes', '--offline', '--json'], dir);
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ added: true, package: { name: '@acme/guard-bash', version: '1.2.0', hooks: [{ name: 'guard-bash', sha256: GUARD_SHA }] } });
    expect(lstatSync(path.join(dir, INSTALLED)).isSymbolicLink()).toBe(false);
    expect(run(dir).stdout).toContain('hook guard-bash tools/pre-execute deny');
  });

  it('a changed wasm is refused by verify (exit 1) and run (exit 2), each naming both digests; run writes no log', () => {
    const dir = project('tampered');
    expect(hookbox(['add', tarball, '--yes', '--offline'], dir).status).toBe(0);
    const wasm = path.join(dir, INSTALLED, 'dist', 'hook.wasm');
    appendFileSync(wasm, Buffer.from([0]));
    const changed = spawnSync('sha256sum', [wasm], { encoding: 'utf8' }).stdout.split(' ')[0] as string;
    expect(changed).toMatch(/^[0-9a-f]{64}$/);

    const verified = hookbox(['verify'], dir);
    expect(verified.status).toBe(1);
    expect(verified.stdout).toContain('CHANGED  guard-bash (hooks[0]) @acme/guard-bash@1.2.0');
    expect(verified.stdout).toContain(`the wasm has sha256 ${changed}, the config pinned ${GUARD_SHA}`);

    const session = run(dir);
    expect(session.status).toBe(2);
    expect(session.stdout).toBe('');
    expect(session.stderr).toContain('hooks[0] (guard-bash): the pinned package @acme/guard-bash@1.2.0 changed');
    expect(session.stderr).toContain(`the wasm has sha256 ${changed}, the config pinned ${GUARD_SHA}`);
    expect(existsSync(path.join(dir, 'session.jsonl'))).toBe(false);
  });

  it('a wasm swapped together with its manifest digest is still refused: the config pin is independent', () => {
    const dir = project('swapped');
    expect(hookbox(['add', tarball, '--yes', '--offline'], dir).status).toBe(0);
    const other = exampleManifest('audit-trail');
    const otherSha = (JSON.parse(readFileSync(other, 'utf8')) as { sha256: string }).sha256;
    copyFileSync(path.join(path.dirname(other), 'hook.wasm'), path.join(dir, INSTALLED, 'dist', 'hook.wasm'));
    const manifestFile = path.join(dir, INSTALLED, 'dist', 'hook.json');
    writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace(GUARD_SHA, otherSha));

    const verified = hookbox(['verify', '--json'], dir);
    expect(verified.status).toBe(1);
    const problems = (JSON.parse(verified.stdout) as { hooks: { problems: { what: string; expected: string; actual: string }[] }[] }).hooks[0]?.problems;
    expect(problems).toEqual([
      expect.objectContaining({ what: 'manifest', expected: GUARD_SHA, actual: otherSha }),
      expect.objectContaining({ what: 'wasm', expected: GUARD_SHA, actual: otherSha }),
    ]);
    const session = run(dir);
    expect(session.status).toBe(2);
    expect(session.stderr).toContain(`the manifest now pins sha256 ${otherSha}, the config pinned ${GUARD_SHA}`);
  });

  it("verify checks the organisation layer's hooks too, naming the file that pins a changed one", () => {
    const dir = project('layers');
    expect(hookbox(['add', tarball, '--yes', '--offline'], dir).status).toBe(0);
    const org = path.join(scratch, 'org.json');
    const wrong = 'b'.repeat(64);
    writeFileSync(org, JSON.stringify({ hooks: [{ name: 'org-guard', wasm: path.join(path.dirname(GUARD), 'hook.wasm'), pin: { sha256: wrong } }] }));
    const verified = spawnSync(process.execPath, [BIN, 'verify'], { cwd: dir, env: { ...env, HOOKBOX_ORG_CONFIG: org }, encoding: 'utf8', timeout: 120_000 });
    expect(verified.status).toBe(1);
    expect(verified.stdout).toContain(`CHANGED  org-guard (hooks[0] of ${org})`);
    expect(verified.stdout).toContain(`the wasm has sha256 ${GUARD_SHA}, the config pinned ${wrong}`);
    expect(verified.stdout).toContain(`ok       guard-bash (hooks[0] of ${path.join(dir, 'hookbox.config.json')})`);
  });

  it('re-adding a new version of the package updates its entry in place and keeps the operator settings', () => {
    const dir = project('upgrade');
    expect(hookbox(['add', tarball, '--yes', '--offline'], dir).status).toBe(0);
    const file = path.join(dir, 'hookbox.config.json');
    const edited = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown>[] };
    edited.hooks = [{ name: 'first', wasm: path.join(path.dirname(GUARD), 'hook.wasm') }, { ...edited.hooks[0], failPolicy: 'open', timeoutMs: 800 }];
    writeFileSync(file, JSON.stringify(edited));
    const next = hookbox(['pack', GUARD, '--package-name', '@acme/guard-bash', '--package-version', '1.3.0', '-o', path.join(scratch, 'out-next')], scratch);
    expect(next.status).toBe(0);
    const readded = hookbox(['add', path.join(scratch, 'out-next', 'acme-guard-bash-1.3.0.tgz'), '--yes', '--offline'], dir);
    expect(readded.status).toBe(0);
    expect(readded.stdout).toContain('updated guard-bash (hooks[1]) pinned to @acme/guard-bash@1.3.0');
    expect(config(dir).hooks[1]).toMatchObject({ name: 'guard-bash', failPolicy: 'open', timeoutMs: 800, pin: { version: '1.3.0', sha256: GUARD_SHA } });
    expect(hookbox(['verify'], dir).status).toBe(0);
  });

  it('a hook name another entry uses is refused, naming the entry; the config is unchanged', () => {
    const dir = project('conflict');
    const file = path.join(dir, 'hookbox.config.json');
    const before = `${JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: GUARD }] }, null, 2)}\n`;
    writeFileSync(file, before);
    const added = hookbox(['add', tarball, '--yes', '--offline'], dir);
    expect(added.status).toBe(2);
    expect(added.stderr.trim()).toBe(`hookbox: ${file}: hooks[0].name: "guard-bash" is already used by another hook; rename or remove that entry before adding @acme/guard-bash`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(existsSync(path.join(dir, '.hookbox'))).toBe(false);
  });

  it("an organisation layer that locks the hook list refuses the add before anything is installed or written", () => {
    const dir = project('org-locked');
    const org = path.join(scratch, 'org-locked.json');
    writeFileSync(org, JSON.stringify({ hooks: [], locked: ['hooks'] }));
    const added = spawnSync(process.execPath, [BIN, 'add', tarball, '--yes', '--offline'], { cwd: dir, env: { ...env, HOOKBOX_ORG_CONFIG: org }, encoding: 'utf8', timeout: 120_000 });
    expect(added.status).toBe(2);
    expect(added.stderr.trim()).toBe(`hookbox: ${path.join(dir, 'hookbox.config.json')}: hooks: the organisation layer locks the hook list (${org}: locked[0]); a lower layer cannot add hooks`);
    expect(existsSync(path.join(dir, 'hookbox.config.json'))).toBe(false);
    expect(existsSync(path.join(dir, '.hookbox'))).toBe(false);
  });

  it('without --yes and with stdin not a terminal, add refuses and changes nothing', () => {
    const dir = project('no-tty');
    const added = hookbox(['add', tarball, '--offline'], dir, 'y\n');
    expect(added.status).toBe(2);
    expect(added.stdout).toContain('hook guard-bash 1.2.0');
    expect(added.stderr.trim()).toBe('hookbox: stdin is not a terminal, so hookbox cannot ask: review the hooks above and pass --yes to add them (the project was not changed)');
    expect(existsSync(path.join(dir, 'hookbox.config.json'))).toBe(false);
    expect(existsSync(path.join(dir, '.hookbox'))).toBe(false);
  });

  it('bad input is exit 2 with one line: a missing file, a package name npm cannot resolve offline, a bad config', () => {
    const dir = project('bad-input');
    const missing = hookbox(['add', './nope.tgz', '--yes'], dir);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(`hookbox: ${path.join(dir, 'nope.tgz')}: no such tarball or package folder`);
    const byName = hookbox(['add', '@acme/not-in-any-cache', '--yes', '--offline'], dir);
    expect(byName.status).toBe(2);
    expect(byName.stderr).toContain('hookbox: npm install');
    writeFileSync(path.join(dir, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'x', wasm: 'x.wasm', timeoutMs: -1 }] }));
    for (const args of [['add', tarball, '--yes', '--offline'], ['verify']]) {
      const bad = hookbox(args, dir);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(`${path.join(dir, 'hookbox.config.json')}: hooks[0].timeoutMs`);
    }
  });

  it.each(['pack', 'add', 'verify'])('%s --help describes the command', (command) => {
    const help = hookbox([command, '--help'], scratch);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(`Usage: hookbox ${command}`);
  });
});

/**
 * A registry of one package on loopback: each packument request gets the
 * next entry of `versions` (the last one repeats), with its tarball.
 */
async function startRegistry(versions: readonly { version: string; tarball: string }[]) {
  const requests: string[] = [];
  let served = 0;
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tarballs = new Map(versions.map((entry) => [`/${path.basename(entry.tarball)}`, entry.tarball]));
    if (request.url?.toLowerCase() === '/@acme%2fguard-bash') {
      const entry = versions[Math.min(served++, versions.length - 1)] as { version: string; tarball: string };
      const bytes = readFileSync(entry.tarball);
      const dist = { tarball: `${base}/${path.basename(entry.tarball)}`, integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}` };
      const manifest = { name: '@acme/guard-bash', version: entry.version, hookbox: { hooks: ['dist/hook.json'] }, dist };
      response.setHeader('content-type', 'application/json');
      response.setHeader('cache-control', 'no-store');
      response.end(JSON.stringify({ name: '@acme/guard-bash', 'dist-tags': { latest: entry.version }, versions: { [entry.version]: manifest } }));
    } else if (request.url !== undefined && tarballs.has(request.url)) {
      response.end(readFileSync(tarballs.get(request.url) as string));
    } else {
      response.statusCode = 404;
      response.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    requests,
    /** npm settings for it: online, and a cache of its own (earlier adds cached these very tarballs by integrity). */
    env: { ...env, npm_config_cache: mkdtempSync(path.join(scratch, 'registry-cache-')), npm_config_offline: 'false', npm_config_registry: `${base(server)}/` },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function base(server: ReturnType<typeof createServer>): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The bin, asynchronously: the registry answers from this process. */
async function hookboxAsync(args: readonly string[], cwd: string, childEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stdout, stderr };
}

describe('hookbox add by package name', SLOW, () => {
  it('resolves the name through the configured registry (a loopback one here) and pins what it served', async () => {
    const registry = await startRegistry([{ version: '1.2.0', tarball }]);
    try {
      const dir = project('by-name');
      const added = await hookboxAsync(['add', '@acme/guard-bash@^1', '--yes'], dir, registry.env);
      expect(added.stderr).toBe('');
      expect(added.status).toBe(0);
      expect(added.stdout).toContain(`added guard-bash (hooks[0]) pinned to @acme/guard-bash@1.2.0 sha256 ${GUARD_SHA}`);
      expect(registry.requests).toContain(`/${path.basename(tarball)}`);
      const lock = JSON.parse(readFileSync(path.join(dir, '.hookbox', 'packages', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      expect(lock.dependencies).toEqual({ '@acme/guard-bash': '^1.2.0' });
      expect(run(dir).stdout).toContain('hook guard-bash tools/pre-execute deny');
    } finally {
      await registry.close();
    }
  });

  it('refuses when npm installs another version than the one reviewed (published in between); the config is not changed', async () => {
    const next = hookbox(['pack', GUARD, '--package-name', '@acme/guard-bash', '--package-version', '1.3.0', '-o', path.join(scratch, 'out-race')], scratch);
    expect(next.status).toBe(0);
    const registry = await startRegistry([{ version: '1.2.0', tarball }, { version: '1.3.0', tarball: path.join(scratch, 'out-race', 'acme-guard-bash-1.3.0.tgz') }]);
    try {
      const dir = project('by-name-race');
      const added = await hookboxAsync(['add', '@acme/guard-bash', '--yes'], dir, registry.env);
      expect(added.status).toBe(2);
      expect(added.stderr).toContain('npm installed a package that differs from the one reviewed: the package is @acme/guard-bash@1.3.0, @acme/guard-bash@1.2.0 was reviewed');
      expect(existsSync(path.join(dir, 'hookbox.config.json'))).toBe(false);
    } finally {
      await registry.close();
    }
  });
});

describe.skipIf(
  skipUnless('hookbox add at a terminal', existsSync('/usr/bin/script') ? undefined : 'util-linux `script` is not installed to give it one'),
)('hookbox add at a terminal (skipped: util-linux `script` is not installed to give it one)', SLOW, () => {
  function atTerminal(dir: string, answer: string) {
    const command = [process.execPath, BIN, 'add', tarball, '--offline'].map((word) => `'${word}'`).join(' ');
    return spawnSync('script', ['-qec', `cd '${dir}' && ${command}`, '/dev/null'], { env, encoding: 'utf8', input: answer, timeout: 120_000 });
  }

  it('asks after the review; "y" adds the hook', () => {
    const dir = project('tty-yes');
    const added = atTerminal(dir, 'y\n');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain(`add this hook to ${path.join(dir, 'hookbox.config.json')}? [y/N]`);
    expect(config(dir).hooks.map((hook) => hook.name)).toEqual(['guard-bash']);
  });

  it('anything else declines: exit 1, nothing installed or written', () => {
    const dir = project('tty-no');
    const declined = atTerminal(dir, 'n\n');
    expect(declined.status).toBe(1);
    expect(declined.stdout).toContain('not added');
    expect(existsSync(path.join(dir, 'hookbox.config.json'))).toBe(false);
    expect(existsSync(path.join(dir, '.hookbox'))).toBe(false);
  });
});
