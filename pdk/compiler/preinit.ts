/**
 * Pre-initializes the engine with a hook's bundle using Wizer (the exact
 * version pinned in package.json ships a native binary per platform): the
 * engine evaluates the bundle read from stdin and Wizer snapshots the result.
 * A top-level throw fails the build with the author's file and line.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { BuildError } from '../../host/errors.ts';
import type { HookBundle } from './bundle.ts';
import { extismHostStub } from './host-stub.ts';
import { sourceMapLookup } from './source-map.ts';

const WIZER_TIMEOUT_MS = 120_000;
// A variable specifier: the package ships no type declarations.
const WIZER_PACKAGE = '@bytecodealliance/wizer';

/** The snapshot and the export names the bundle published, in export-table order. */
export interface Preinitialized {
  wasm: Uint8Array;
  exportNames: string[];
}

async function wizerBinary(): Promise<string> {
  try {
    return ((await import(WIZER_PACKAGE)) as { default: string }).default;
  } catch (error) {
    throw new BuildError('@bytecodealliance/wizer has no binary for this platform', { cause: error });
  }
}

function run(bin: string, args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), WIZER_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new BuildError(`cannot run wizer (${bin})`, { cause: e }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => {}); // wizer may exit before reading everything; the exit code tells
    child.stdin.end(stdin);
  });
}

/**
 * Rewrites `hook.js:LINE` positions in a QuickJS stack into the author's
 * `file:line:col`, and names the first frame outside the PDK as the culprit.
 */
function explain(stderr: string, bundle: HookBundle, pdkDir: string): string {
  const lookup = sourceMapLookup(bundle.map, bundle.mapDir);
  let culprit: string | undefined;
  // Our message, without Wizer's own trap report and backtrace that follow it.
  const ours = stderr.slice(stderr.indexOf('hookbox-init-error')).split(/\nError: the `wizer.initialize` function trapped/)[0] ?? '';
  const text = ours.replace(/hook\.js:(\d+)(?::\d+)?/g, (whole, line: string) => {
    const pos = lookup(Number(line));
    if (!pos) return whole;
    const where = `${pos.file}:${pos.line}:${pos.column}`;
    const ours = pos.file.startsWith(pdkDir + sep) || pos.file.includes(`${sep}node_modules${sep}`) || pos.file.includes('hookbox-entry');
    if (culprit === undefined && !ours) culprit = where;
    return where;
  });
  const message = text.replace(/^hookbox-init-error: /m, '').trim();
  return culprit ? `${culprit}: ${message}` : message;
}

/** Runs Wizer over `enginePath` with the bundle; returns the snapshot and its export names. */
export async function preinitialize(enginePath: string, bundle: HookBundle, pdkDir: string): Promise<Preinitialized> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-wizer-'));
  try {
    const stubPath = join(dir, 'extism-host-stub.wasm');
    const outPath = join(dir, 'hook.wasm');
    await writeFile(stubPath, extismHostStub());
    const { code, stdout, stderr } = await run(
      await wizerBinary(),
      [
        enginePath,
        '-o',
        outPath,
        '--allow-wasi',
        '--inherit-stdio=true',
        '--inherit-env=false',
        '--wasm-bulk-memory=true',
        `--preload=extism:host/env=${stubPath}`,
      ],
      bundle.code,
    );
    if (code !== 0) {
      const detail = stderr.includes('hookbox-init-error') ? explain(stderr, bundle, pdkDir) : stderr.trim();
      throw new BuildError(`pre-initialization failed: ${detail || `wizer exited with ${String(code)}`}`);
    }
    const line = stdout.split('\n').find((l) => l.startsWith('HOOKBOX_EXPORTS:'));
    if (line === undefined) throw new BuildError(`pre-initialization printed no export list:\n${stdout}${stderr}`);
    const names = line.slice('HOOKBOX_EXPORTS:'.length).trim();
    return { wasm: await readFile(outPath), exportNames: names === '' ? [] : names.split(',') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
