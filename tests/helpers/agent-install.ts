/**
 * Agents that cannot be devDependencies, installed from the npm registry by
 * the test that needs them. OpenCode and Factory Droid ship their binary in
 * per-platform packages, and the registry here serves only the linux-x64
 * ones: as devDependencies their lockfile entries for other platforms are
 * missing and `npm ci` refuses the lockfile. So a spec asks for the exact
 * package it drives, and this module installs it once into a cache folder
 * shared by every run on the machine.
 *
 * The install goes to a fresh sibling folder that is renamed into place only
 * when `npm install` has succeeded: a cache entry is complete or absent, and
 * two runs installing the same package at once both end with a complete one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedCacheDir } from './run-tmp.ts';

/** An installed agent package, or why it could not be installed. */
export type AgentInstall = { readonly kind: 'installed'; readonly root: string; readonly bin: string } | { readonly kind: 'unavailable'; readonly reason: string };

/** Where installed agents are kept: `$HOOKBOX_AGENT_CACHE`, else a folder in the system's temporary directory. */
export function agentCacheDir(): string {
  return process.env.HOOKBOX_AGENT_CACHE ?? sharedCacheDir('hookbox-agents');
}

/** The marker a complete install leaves, holding the exact spec it installed. */
const MARKER = '.hookbox-installed';
/** A registry install of a 100+ MB binary package on a loaded machine. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** The npm to run: the one running this test (`npm test` sets `npm_execpath`), else `npm` from PATH. */
function npmCommand(): { command: string; prefix: string[] } {
  const cli = process.env.npm_execpath;
  if (cli !== undefined && cli.endsWith('.js') && existsSync(cli)) return { command: process.execPath, prefix: [cli] };
  return { command: 'npm', prefix: [] };
}

/**
 * `spec` (an exact `name@version`) installed from the registry into the agent
 * cache, and the path of its bin `binName` — or, for a package that declares
 * no bin (Factory's binary package names its binary only as `main`), a path
 * inside `node_modules` (`@factory/cli-linux-x64/bin/droid`, any name with a
 * `/`). Installs on first use; later calls
 * (in this run or the next) find it in the cache. Synchronous, so a suite can
 * decide at collection time whether it runs.
 */
export function installedAgent(spec: string, binName: string): AgentInstall {
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*@\d+\.\d+\.\d+[\w.+-]*$/.test(spec)) {
    return { kind: 'unavailable', reason: `agent package "${spec}" is not an exact name@version` };
  }
  const root = join(agentCacheDir(), spec.replace(/[/@]/g, '+'));
  const bin = binName.includes('/') ? join(root, 'node_modules', ...binName.split('/')) : join(root, 'node_modules', '.bin', binName);
  const installed = (): AgentInstall | undefined => {
    const marker = join(root, MARKER);
    if (!existsSync(marker) || readFileSync(marker, 'utf8') !== spec) return undefined;
    return existsSync(bin) ? { kind: 'installed', root, bin } : { kind: 'unavailable', reason: `${spec} is installed in ${root} but has no bin "${binName}"` };
  };
  const cached = installed();
  if (cached !== undefined) return cached;

  const staging = `${root}.staging-${process.pid}-${Date.now()}`;
  try {
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify({ name: 'hookbox-agent-cache', private: true })}\n`);
    const npm = npmCommand();
    const run = spawnSync(npm.command, [...npm.prefix, 'install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
      cwd: staging,
      encoding: 'utf8',
      timeout: INSTALL_TIMEOUT_MS,
      env: { ...process.env, npm_config_prefix: undefined, npm_config_global: undefined },
    });
    if (run.error !== undefined) return { kind: 'unavailable', reason: `npm install ${spec} did not complete (${run.error.message})` };
    if (run.status !== 0) return { kind: 'unavailable', reason: `npm install ${spec} exited ${String(run.status)}: ${`${run.stderr}`.trim().slice(-400)}` };
    writeFileSync(join(staging, MARKER), spec);
    try {
      renameSync(staging, root);
    } catch (error) {
      // Another run put a complete install in place first: use it. An entry without the marker is a broken one: replace it.
      if (installed() !== undefined) return installed() as AgentInstall;
      try {
        rmSync(root, { recursive: true, force: true });
        renameSync(staging, root);
      } catch (again) {
        return { kind: 'unavailable', reason: `could not move ${spec} into ${root}: ${(error as Error).message}; then ${(again as Error).message}` };
      }
    }
    return installed() ?? { kind: 'unavailable', reason: `${spec} installed, but ${root} holds no complete install` };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
