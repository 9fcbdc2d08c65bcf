import { spawnSync } from 'node:child_process';
import { ConfigError } from '../../errors.ts';

/**
 * Flags on every npm call hookbox makes. A hook package is untrusted:
 * `--ignore-scripts` means installing or packing one never runs its
 * lifecycle scripts (`preinstall`, `prepare`…); the wasm is the only code it
 * ships, and that runs in the sandbox. No audit or funding requests.
 */
const SAFE_FLAGS = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'] as const;

/** npm's package-name rule (lowercase, optional scope); it also keeps a name from leaving node_modules. */
export const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** Options of one npm call. */
export interface NpmOptions {
  readonly cwd: string;
  /** Pass `--offline`: resolve only from tarballs, folders and npm's cache. */
  readonly offline?: boolean;
}

/**
 * Runs `npm <args>` with the safe flags and returns its stdout. A failure is
 * a `ConfigError` with npm's exit code and the end of its stderr (the CLI
 * prints it escaped: a package's name or npm's echo of it is untrusted).
 */
export function runNpm(args: readonly string[], options: NpmOptions): string {
  const all = [...args, ...SAFE_FLAGS, ...(options.offline === true ? ['--offline'] : [])];
  const result = spawnSync('npm', all, { cwd: options.cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error !== undefined) throw new ConfigError(`cannot run npm (is it on PATH?): ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) {
    const tail = result.stderr.trim().split('\n').slice(-8).join('\n');
    throw new ConfigError(`npm ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${tail}`);
  }
  return result.stdout;
}
