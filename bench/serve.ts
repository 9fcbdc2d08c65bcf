/**
 * The `serve` section: a Claude Code PreToolUse decision for guard-bash on
 * the bench payload, client-measured, through `hookbox serve` (a separate
 * process) over loopback HTTP and over its unix socket; through `hookbox
 * hook claude-code` spawned per call (server up, server down); and the
 * Claude Code-style `sh` / `node` shell hooks and a bare `node -e` spawn on
 * the same payload. Targets (issue 12): HTTP / socket p50 ≤ 2 ms in a
 * session pattern (calls spaced `gapMs`), ≤ the hot in-process hook p50 +
 * 0.5 ms in a tight loop; the command client ≤ 1.5× a bare node spawn.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EXAMPLES_DIR } from '../examples-hooks/build.ts';
import { HookRunner } from '../host/runner/index.ts';
import { PAYLOAD, SESSION, hookJson } from './fixtures.ts';
import { HOOK_CLIENT, spawnTimed, startServe } from './hookbox-process.ts';
import { type Summary, formatSection, sleep, summarize } from './harness.ts';
import { nodeHook, shHook } from './shell.ts';


export interface ServeRow {
  readonly id: string;
  readonly label: string;
  readonly summary: Summary;
}

export interface ServeTarget {
  readonly label: string;
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}

export interface ServeOptions {
  /** Spacing of the session-pattern calls (ms). */
  readonly gapMs: number;
  readonly sessionCalls: number;
  readonly tightCalls: number;
  readonly spawns: number;
  readonly onProgress: (message: string) => void;
}


function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function request(target: { port: number; token: string } | { socket: string }, body: string, agent: http.Agent | false): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...('socket' in target ? { socketPath: target.socket } : { host: '127.0.0.1', port: target.port, headers: { authorization: `Bearer ${target.token}` } }),
        path: '/hooks/claude-code',
        method: 'POST',
        agent,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}: ${text}`))));
      },
    );
    req.setHeader('content-type', 'application/json');
    req.on('error', reject);
    req.end(body);
  });
}

function expectAllow(text: string, row: string): void {
  // guard-bash allows the bench payload; hookbox answers allow with no output (Claude Code's own rules apply).
  if (text.trim() !== '') throw new Error(`${row}: expected an allow (empty answer), got ${text.slice(0, 200)}`);
}

export async function measureServe(options: ServeOptions): Promise<{ rows: ServeRow[]; targets: ServeTarget[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-bench-serve-'));
  const rows: ServeRow[] = [];
  const progress = options.onProgress;
  try {
    const config = join(dir, 'hookbox.config.json');
    await writeFile(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.json') }] }));
    const socket = join(dir, 'run', 'serve.sock');
    const tokenFile = join(dir, 'run', 'token');
    const port = await freePort();

    // The hot in-process hook: guard-bash through HookRunner in a tight loop (the reference of the tight-loop target).
    progress('serve: hot in-process guard-bash (reference)');
    const runner = await HookRunner.start();
    let hotP50 = Number.NaN;
    try {
      const hook = await runner.load({ name: 'guard-bash', wasm: join(EXAMPLES_DIR, 'guard-bash', 'dist', 'hook.wasm') });
      const call = { seam: 'tools/pre-execute' as const, payload: PAYLOAD, next: { action: 'allow' as const }, session: SESSION };
      for (let i = 0; i < 200; i++) await hook.invoke(call);
      const samples: number[] = [];
      for (let i = 0; i < options.tightCalls; i++) {
        const t = performance.now();
        await hook.invoke(call);
        samples.push(performance.now() - t);
      }
      const summary = summarize(samples);
      hotP50 = summary.p50Us;
      rows.push({ id: 'hot-hook', label: 'guard-bash in-process, HookRunner (hot)', summary });
    } finally {
      await runner.close();
    }

    progress('serve: starting hookbox serve');
    const stop = await startServe(config, ['--socket', socket, '--port', String(port), '--token-file', tokenFile]);
    try {
      const token = (await import('node:fs')).readFileSync(tokenFile, 'utf8').trim();
      const httpTarget = { port, token };
      const socketTarget = { socket };
      // Session pattern: a fresh connection per call (as an agent's hook client makes), calls spaced gapMs, HTTP and socket alternating.
      progress(`serve: session pattern, ${options.sessionCalls} calls each spaced ${options.gapMs} ms`);
      const sessionHttp: number[] = [];
      const sessionSocket: number[] = [];
      for (let i = 0; i < options.sessionCalls; i++) {
        await sleep(options.gapMs);
        let t = performance.now();
        expectAllow(await request(httpTarget, hookJson('bench-http', i), false), 'serve http');
        sessionHttp.push(performance.now() - t);
        await sleep(options.gapMs);
        t = performance.now();
        expectAllow(await request(socketTarget, hookJson('bench-socket', i), false), 'serve socket');
        sessionSocket.push(performance.now() - t);
      }
      // The first call of a session instantiates its hooks: reported in the row, kept out of nothing.
      rows.push({ id: 'serve-http-session', label: `serve over HTTP, session pattern (${options.gapMs} ms gaps, new connection)`, summary: summarize(sessionHttp) });
      rows.push({ id: 'serve-socket-session', label: `serve over the socket, session pattern (${options.gapMs} ms gaps)`, summary: summarize(sessionSocket) });

      progress('serve: tight loop');
      for (const [id, label, target] of [
        ['serve-http-tight', 'serve over HTTP, tight loop (keep-alive)', httpTarget],
        ['serve-socket-tight', 'serve over the socket, tight loop (keep-alive)', socketTarget],
      ] as const) {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < 100; i++) await request(target, hookJson(`bench-tight-${id}`, i), agent);
        const samples: number[] = [];
        for (let i = 0; i < options.tightCalls; i++) {
          const t = performance.now();
          expectAllow(await request(target, hookJson(`bench-tight-${id}`, i), agent), id);
          samples.push(performance.now() - t);
        }
        agent.destroy();
        rows.push({ id, label, summary: summarize(samples) });
      }

      progress(`serve: spawned processes, ${options.spawns} each (bare node, hook client, sh, node hooks)`);
      const bare: number[] = [];
      const client: number[] = [];
      const sh: number[] = [];
      const nodeShell: number[] = [];
      const shellSh = shHook();
      const shellNode = await nodeHook();
      try {
        for (let i = 0; i < options.spawns; i++) {
          bare.push((await spawnTimed(process.execPath, ['-e', ''], '')).ms);
          const run = await spawnTimed(process.execPath, [HOOK_CLIENT, 'claude-code', '--socket', socket], hookJson('bench-client', i));
          if (run.code !== 0) throw new Error(`hook client exited ${run.code}`);
          expectAllow(run.stdout, 'hook client');
          client.push(run.ms);
          let t = performance.now();
          await shellSh.call(PAYLOAD, SESSION);
          sh.push(performance.now() - t);
          t = performance.now();
          await shellNode.call(PAYLOAD, SESSION);
          nodeShell.push(performance.now() - t);
        }
      } finally {
        await shellSh.close();
        await shellNode.close();
      }
      rows.push({ id: 'node-bare', label: 'bare `node -e ""` spawn (reference)', summary: summarize(bare) });
      rows.push({ id: 'hook-client-up', label: '`hookbox hook claude-code` spawned, server up', summary: summarize(client) });
      rows.push({ id: 'shell-sh', label: 'Claude Code-style shell hook (sh)', summary: summarize(sh) });
      rows.push({ id: 'shell-node', label: 'Claude Code-style shell hook (node)', summary: summarize(nodeShell) });
    } finally {
      await stop();
    }

    progress('serve: hook client with the server down (in-process fallback)');
    const down: number[] = [];
    for (let i = 0; i < Math.max(2, Math.ceil(options.spawns / 5)); i++) {
      const run = await spawnTimed(process.execPath, [HOOK_CLIENT, 'claude-code', '--socket', join(dir, 'none.sock'), '--config', config], hookJson('bench-down', i));
      if (run.code !== 0) throw new Error(`hook client (in-process) exited ${run.code}`);
      expectAllow(run.stdout, 'hook client, server down');
      down.push(run.ms);
    }
    rows.push({ id: 'hook-client-down', label: '`hookbox hook claude-code` spawned, server down (in-process)', summary: summarize(down) });

    const p50 = (id: string) => rows.find((row) => row.id === id)?.summary.p50Us ?? Number.NaN;
    const ms = (us: number) => `${(us / 1000).toFixed(2)} ms`;
    const targets: ServeTarget[] = [];
    for (const transport of ['http', 'socket'] as const) {
      const session = p50(`serve-${transport}-session`);
      targets.push({ label: `serve ${transport}, session pattern p50`, target: '≤ 2 ms', value: ms(session), met: session <= 2000 });
      const tight = p50(`serve-${transport}-tight`);
      targets.push({ label: `serve ${transport}, tight loop p50`, target: `≤ hot hook p50 + 0.5 ms (${ms(hotP50 + 500)})`, value: ms(tight), met: tight <= hotP50 + 500 });
    }
    const ratio = p50('hook-client-up') / p50('node-bare');
    targets.push({ label: 'hook client (server up) p50 / bare node p50', target: '≤ 1.5×', value: `${ratio.toFixed(2)}×`, met: ratio <= 1.5 });
    return { rows, targets };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The section's table and targets, as printed after the main report. */
export function formatServe(result: { rows: readonly ServeRow[]; targets: readonly ServeTarget[] }): string {
  return formatSection('hookbox serve / hook (Claude Code PreToolUse, guard-bash, client-measured)', result);
}
