/**
 * A private `/etc` for tests of `hookbox setup --system`: a mount namespace
 * (`unshare --mount`, as root) holding an overlay over the machine's `/etc`
 * whose writes land in a tmpfs of its own — the machine's `/etc` is never
 * touched, and everything else (`/usr`, `/tmp`, the network) is shared. A
 * process joins it with `nsenter --mount`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRun, runAsync } from './real-agents.ts';

/** Why a private `/etc` cannot be made here (`undefined` when it can): not root, no `unshare`/`nsenter`, mounts refused. */
export function privateEtcUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'a mount namespace with a private /etc needs root (unshare --mount)';
  const scratch = mkdtempSync(join(tmpdir(), 'hookbox-etc-probe-'));
  try {
    const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', overlayScript(scratch)], { encoding: 'utf8', timeout: 30_000 });
    if (probe.error !== undefined) return `unshare does not run (${probe.error.message})`;
    if (probe.status !== 0) return `unshare --mount with an overlay over /etc was refused: ${probe.stderr.trim().slice(0, 200)}`;
    const enter = spawnSync('nsenter', ['--version'], { encoding: 'utf8' });
    if (enter.error !== undefined) return `nsenter does not run (${enter.error.message})`;
    return undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function overlayScript(scratch: string): string {
  const layer = join(scratch, 'layer');
  return [
    `mkdir -p '${layer}'`,
    `mount -t tmpfs tmpfs '${layer}'`,
    `mkdir '${layer}/up' '${layer}/work'`,
    `mount -t overlay overlay -o 'lowerdir=/etc,upperdir=${layer}/up,workdir=${layer}/work' /etc`,
  ].join(' && ');
}

/** A running namespace: run a command inside it; close it (the overlay and its tmpfs go with it). */
export interface PrivateEtc {
  /** The command line that runs a program inside the namespace in `cwd` (entering it moves to its `/` otherwise): `[...prefix(cwd), bin, ...args]`. */
  prefix(cwd: string): readonly string[];
  /** Runs `bin args…` inside the namespace (same environment rules as `runAsync`). */
  run(bin: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<AgentRun>;
  /** Writes a file inside the namespace (its folder made), as root. */
  write(file: string, text: string): Promise<void>;
  /** Reads a file inside the namespace, or undefined when it is not there. */
  read(file: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Starts the namespace: a `sleep` holding it open after the overlay is mounted. */
export async function openPrivateEtc(): Promise<PrivateEtc> {
  const scratch = mkdtempSync(join(tmpdir(), 'hookbox-etc-'));
  mkdirSync(join(scratch, 'layer'));
  const holder: ChildProcess = spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', `${overlayScript(scratch)} && echo ready && exec sleep 100000`], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    holder.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    holder.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) resolve();
    });
    holder.on('exit', (code) => reject(new Error(`the namespace holder exited ${String(code)}: ${err}`)));
  });
  const mount = `--mount=/proc/${holder.pid!}/ns/mnt`;
  const enter = [mount, '--'];
  // Entering moves to the namespace's `/`; `nsenter --wd` leaves a cwd getcwd(3) cannot name (Codex 0.169.0 then exits "No such file or directory"), so a shell changes to it by path.
  const prefix = (cwd: string): string[] => ['nsenter', mount, '--', 'sh', '-c', 'cd "$0" && exec "$@"', cwd];
  const run: PrivateEtc['run'] = (bin, args, options) => {
    const [command, ...before] = prefix(options.cwd);
    return runAsync(command!, [...before, bin, ...args], options);
  };
  const sh = (script: string, input?: string): Promise<AgentRun> =>
    new Promise((resolve, reject) => {
      // No stdin unless there is input: a script that never reads it would leave an EPIPE on the write.
      const child = spawn('nsenter', [...enter, 'sh', '-c', script], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      if (input !== undefined) child.stdin!.end(input);
    });
  return {
    prefix,
    run,
    async write(file, text) {
      const done = await sh(`mkdir -p "$(dirname '${file}')" && cat > '${file}'`, text);
      if (done.status !== 0) throw new Error(`writing ${file} in the namespace: ${done.stderr}`);
    },
    async read(file) {
      const done = await sh(`test -e '${file}' && cat '${file}'`);
      return done.status === 0 ? done.stdout : undefined;
    },
    async close() {
      holder.kill('SIGKILL');
      await new Promise((resolve) => (holder.exitCode !== null ? resolve(undefined) : holder.on('exit', resolve)));
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
