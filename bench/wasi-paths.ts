/**
 * What a WASI path call costs: a `path_open` + `fd_read` + `fd_close` loop on
 * a real file through hookbox's `WasiHost`, called the way the Extism SDK
 * calls it (main thread, no worker: the path layer alone), for a file at the
 * root of the grant and three directories down. With `--before <checkout>`
 * the same loop runs through the WASI layer of another checkout too, in
 * interleaved rounds, and the ratio after ÷ before is printed (not part of
 * `npm run bench`):
 *
 *   git archive <rev> host | tar -x -C /tmp/hookbox-before   # e.g. the commit before the fd-relative walk
 *   ln -s "$PWD/node_modules" /tmp/hookbox-before/node_modules
 *   npx tsx bench/wasi-paths.ts --before /tmp/hookbox-before [--rounds 7] [--calls 2000]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LogSink } from '../host/runner/log-sink.ts';
import type { WasiGrant } from '../host/runner/wasi/index.ts';

type Host = { functions: Record<string, (context: unknown, ...args: (number | bigint)[]) => number>; close(): void };
type HostClass = new (grant: WasiGrant, sink: LogSink, memory: () => { buffer: ArrayBuffer }) => Host;

const { values } = parseArgs({ options: { before: { type: 'string' }, rounds: { type: 'string', default: '7' }, calls: { type: 'string', default: '2000' } } });
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const PATH = 256;
const IOV = 512;
const BUF = 4096;
const OUT = 1024;
const FD_READ = 1n << 1n;

async function wasiHost(root: string): Promise<HostClass> {
  const module = (await import(pathToFileURL(path.join(root, 'host', 'runner', 'wasi', 'index.ts')).href)) as { WasiHost: HostClass };
  return module.WasiHost;
}

/** One guest on `grant`: a loop of open + read + close of `file`; returns µs per loop iteration, one sample per call. */
function guest(WasiHost: HostClass, grant: WasiGrant) {
  const memory = { buffer: new ArrayBuffer(65_536) };
  const host = new WasiHost(grant, new LogSink(), () => memory);
  const view = new DataView(memory.buffer);
  const bytes = new Uint8Array(memory.buffer);
  view.setUint32(IOV, BUF, true);
  view.setUint32(IOV + 4, 64, true);
  const { path_open: open, fd_read: read, fd_close: close } = host.functions as Record<string, (context: unknown, ...args: (number | bigint)[]) => number>;
  return (file: string, samples: number[]) => {
    const length = bytes.set(new TextEncoder().encode(file), PATH) ?? file.length;
    for (let i = 0; i < CALLS; i++) {
      const started = process.hrtime.bigint();
      if (open!(null, 3, 0, PATH, length, 0, FD_READ, 0n, 0, OUT) !== 0) throw new Error(`path_open ${file} failed`);
      const fd = view.getUint32(OUT, true);
      if (read!(null, fd, IOV, 1, OUT) !== 0 || view.getUint32(OUT, true) !== 7) throw new Error(`fd_read ${file} failed`);
      if (close!(null, fd) !== 0) throw new Error('fd_close failed');
      samples.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  };
}

const p50 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.99)] as number;

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-bench-wasi-')));
try {
  mkdirSync(path.join(dir, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(path.join(dir, 'top.txt'), 'content');
  writeFileSync(path.join(dir, 'a', 'b', 'c', 'deep.txt'), 'content');
  const sides: [string, HostClass][] = [['after', await wasiHost(process.cwd())]];
  if (values.before !== undefined) sides.unshift(['before', await wasiHost(path.resolve(values.before))]);
  const rows: { label: string; run: (file: string, samples: number[]) => void; file: string; write: boolean; samples: number[] }[] = [];
  for (const [side, WasiHost] of sides) {
    for (const write of [false, true]) {
      const run = guest(WasiHost, { preopens: [{ guest: '/data', host: dir, write }], env: {}, clock: false });
      for (const file of ['top.txt', 'a/b/c/deep.txt']) rows.push({ label: `${side} ${write ? 'write grant' : 'read-only'} ${file}`, run, file, write, samples: [] });
    }
  }
  for (const row of rows) row.run(row.file, []); // warm-up
  for (let round = 0; round < ROUNDS; round++) for (const row of rows) row.run(row.file, row.samples);
  console.log(`path_open + fd_read (64 B) + fd_close, ${ROUNDS} interleaved rounds × ${CALLS} calls, µs per iteration`);
  for (const row of rows) console.log(`  ${row.label.padEnd(42)} p50 ${p50(row.samples).toFixed(1).padStart(6)}  p99 ${p99(row.samples).toFixed(1).padStart(6)}`);
  if (values.before !== undefined) {
    for (const row of rows.filter((candidate) => candidate.label.startsWith('after'))) {
      const before = rows.find((candidate) => candidate.label === row.label.replace('after', 'before'));
      if (before !== undefined) console.log(`  ratio ${row.label.slice(6).padEnd(36)} after ÷ before p50 ${(p50(row.samples) / p50(before.samples)).toFixed(2)}×`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
