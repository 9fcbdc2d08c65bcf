/**
 * The `clients` section (issue #55): each per-event command client against
 * a bare `node -e 0` spawn, side by side in one run — with `hookbox serve` up
 * (native, sh, node; interleaved rounds), in the default setup with no
 * hand-started server (the sh client, 21 events in a fresh project: the
 * first starts the server), and the first event of a fresh project. Every
 * event is the bench payload as Claude Code's PreToolUse, allowed by
 * guard-bash. Targets: native ≤ 0.05× and sh ≤ 0.2× `node -e 0`; default
 * setup events 2–21 p50 ≤ 0.1×; the first event ≤ 1.5 s.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { hookJson } from './fixtures.ts';
import { HOOKBOX, HOOK_CLIENT, SH_HOOK_CLIENT, spawnTimed, startServe } from './hookbox-process.ts';
import { type Summary, formatSection, summarize } from './harness.ts';

/** Where `npm run build` puts the native client for this platform. */
const NATIVE_CLIENT = fileURLToPath(new URL(`../dist/native/${process.platform}-${process.arch}/hookbox-hook`, import.meta.url));

export interface ClientRow {
  readonly id: string;
  readonly label: string;
  readonly summary: Summary;
}

export interface ClientTarget {
  readonly label: string;
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}


/** A fresh project with guard-bash: its config and its socket (where setup points the clients). */
async function freshProject(root: string, name: string): Promise<{ config: string; socket: string }> {
  const project = join(root, name);
  await mkdir(project, { recursive: true });
  const config = join(project, 'hookbox.config.json');
  await writeFile(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json') }] }));
  return { config, socket: join(project, '.hookbox', 'run', 'serve.sock') };
}

async function timedAllow(command: string, args: readonly string[], input: string, row: string): Promise<number> {
  const run = await spawnTimed(command, args, input);
  if (run.code !== 0 || run.stdout.trim() !== '') throw new Error(`${row}: expected an allow (exit 0, no output), got exit ${run.code}: ${run.stdout.slice(0, 200)}`);
  return run.ms;
}

export async function measureClients(options: { rounds: number; perRound: number; defaultEvents: number; onProgress: (message: string) => void }): Promise<{ rows: ClientRow[]; targets: ClientTarget[] }> {
  const root = await mkdtemp(join(tmpdir(), 'hookbox-bench-clients-'));
  const rows: ClientRow[] = [];
  const native = existsSync(NATIVE_CLIENT);
  try {
    const up = await freshProject(root, 'up');
    options.onProgress('clients: hookbox serve up; native, sh, node clients and node -e 0, interleaved');
    const stop = await startServe(up.config, ['--socket', up.socket]);
    const samples: Record<string, number[]> = { bare: [], native: [], sh: [], node: [] };
    try {
      const words = ['claude-code', '--socket', up.socket, '--config', up.config];
      for (let round = 0; round < options.rounds; round++) {
        for (let i = 0; i < options.perRound; i++) {
          const n = round * options.perRound + i;
          samples.bare!.push((await spawnTimed(process.execPath, ['-e', '0'], '')).ms);
          if (native) samples.native!.push(await timedAllow(NATIVE_CLIENT, words, hookJson('bench-native', n), 'native client'));
          samples.sh!.push(await timedAllow('sh', [SH_HOOK_CLIENT, ...words], hookJson('bench-sh', n), 'sh client'));
          samples.node!.push(await timedAllow(process.execPath, [HOOK_CLIENT, ...words], hookJson('bench-node', n), 'node client'));
        }
      }
    } finally {
      await stop();
    }
    rows.push({ id: 'node-bare', label: '`node -e 0` (spawn to exit)', summary: summarize(samples.bare!) });
    if (native) rows.push({ id: 'native-up', label: 'native client, server up', summary: summarize(samples.native!) });
    rows.push({ id: 'sh-up', label: 'sh client, server up', summary: summarize(samples.sh!) });
    rows.push({ id: 'node-up', label: 'node client, server up', summary: summarize(samples.node!) });

    // The default setup (the sh client, no hand-started server): the first event starts the server for the next ones.
    options.onProgress(`clients: default setup, ${options.defaultEvents} events in a fresh project (no hand-started server)`);
    const fresh = await freshProject(root, 'fresh');
    const events: number[] = [];
    try {
      for (let n = 0; n < options.defaultEvents; n++) {
        events.push(await timedAllow('sh', [SH_HOOK_CLIENT, 'claude-code', '--socket', fresh.socket, '--config', fresh.config], hookJson('bench-default', n), 'default setup'));
      }
    } finally {
      await spawnTimed(process.execPath, [HOOKBOX, 'serve', '--stop', '--config', fresh.config], '');
    }
    rows.push({ id: 'first-event', label: 'default setup: the first event of a fresh project', summary: summarize(events.slice(0, 1)) });
    rows.push({ id: 'default-next', label: `default setup: events 2–${options.defaultEvents}`, summary: summarize(events.slice(1)) });

    const p50 = (id: string) => rows.find((row) => row.id === id)?.summary.p50Us ?? Number.NaN;
    const ratio = (id: string) => p50(id) / p50('node-bare');
    const targets: ClientTarget[] = [];
    if (native) targets.push({ label: 'native client p50 / node -e 0 p50', target: '≤ 0.05×', value: `${ratio('native-up').toFixed(3)}×`, met: ratio('native-up') <= 0.05 });
    targets.push({ label: 'sh client p50 / node -e 0 p50', target: '≤ 0.2×', value: `${ratio('sh-up').toFixed(3)}×`, met: ratio('sh-up') <= 0.2 });
    targets.push({ label: `default setup events 2–${options.defaultEvents} p50 / node -e 0 p50`, target: '≤ 0.1×', value: `${ratio('default-next').toFixed(3)}×`, met: ratio('default-next') <= 0.1 });
    targets.push({ label: 'first event of a fresh project', target: '≤ 1.5 s', value: `${(p50('first-event') / 1000).toFixed(0)} ms`, met: p50('first-event') <= 1_500_000 });
    return { rows, targets };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function formatClients(result: { rows: readonly ClientRow[]; targets: readonly ClientTarget[] }): string {
  return formatSection('per-event clients against `node -e 0` (Claude Code PreToolUse, guard-bash)', result);
}
