import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHook } from '../../host/cli/commands/call.ts';
import { inspectHook } from '../../host/cli/commands/inspect.ts';
import { buildProgram } from '../../host/cli/main.ts';
import { ConfigError } from '../../host/errors.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { skipUnless } from '../helpers/skips.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

let dir: string;
let payload: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-cli-'));
  payload = path.join(dir, 'pre.json');
  await writeFile(payload, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }));
  await Promise.all(['deny', 'infinite-loop', 'unknown-import', 'wasi-attempts'].map((name) => writeCorpusWasm(name, dir)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const wasm = (name: string) => path.join(dir, `${name}.wasm`);

describe('hookbox call (command function)', () => {
  it('reports the decision the seam receives, after the fault policy', async () => {
    expect(await callHook(wasm('deny'), { seam: 'tools/pre-execute', payload })).toMatchObject({
      decision: { action: 'deny', reason: 'corpus deny' },
      fault: null,
    });
    const timeout = await callHook(wasm('infinite-loop'), { seam: 'tools/pre-execute', payload, timeoutMs: 100 });
    expect(timeout.fault?.kind).toBe('timeout');
    expect(timeout.decision).toMatchObject({ action: 'ask' });
    expect(timeout.durationMs).toBeGreaterThanOrEqual(99);
  });

  it('a hook that cannot load is a load fault with the seam\'s fault decision', async () => {
    const report = await callHook(wasm('unknown-import'), { seam: 'tools/pre-execute', payload });
    expect(report.fault).toEqual({ kind: 'load', message: expect.stringContaining('does_not_exist') });
    expect(report.decision).toMatchObject({ action: 'deny' });
  });

  it('unusable input throws a ConfigError with a clear message', async () => {
    await expect(callHook(wasm('deny'), { seam: 'tools/pre', payload })).rejects.toThrow(/unknown seam "tools\/pre"/);
    await expect(callHook(path.join(dir, 'nope.wasm'), { seam: 'tools/pre-execute', payload })).rejects.toThrow(/nope\.wasm: cannot read the hook \(ENOENT\)/);
    await expect(callHook(payload, { seam: 'tools/pre-execute', payload })).rejects.toBeInstanceOf(ConfigError);
    const badJson = path.join(dir, 'bad.json');
    await writeFile(badJson, '{"toolCallId": "c1",\n "toolName": }');
    await expect(callHook(wasm('deny'), { seam: 'tools/pre-execute', payload: badJson })).rejects.toThrow(/bad\.json:2:14: invalid JSON/);
    const wrongPayload = path.join(dir, 'wrong.json');
    await writeFile(wrongPayload, JSON.stringify({ toolName: 'bash' }));
    await expect(callHook(wasm('deny'), { seam: 'tools/pre-execute', payload: wrongPayload })).rejects.toThrow(/wrong\.json: toolCallId: /);
  });
});

/** OS threads of this process (a worker thread is one): Linux only. */
const TASKS = '/proc/self/task';
const threads = (): number => readdirSync(TASKS).length;

describe.skipIf(skipUnless('hookbox call closes its worker on every path', existsSync(TASKS) ? undefined : '/proc/self/task is missing (not Linux)'))('hookbox call closes its worker on every path (skipped where /proc/self/task is missing, i.e. off Linux)', () => {
  it('bad input found while the worker boots (payload, hook file) leaves no worker thread running', async () => {
    await callHook(wasm('deny'), { seam: 'tools/pre-execute', payload }); // libuv and V8 threads started once
    const baseline = threads();
    const wrongPayload = path.join(dir, 'wrong-2.json');
    await writeFile(wrongPayload, JSON.stringify({ toolName: 'bash' }));
    await expect(callHook(wasm('deny'), { seam: 'tools/pre-execute', payload: wrongPayload })).rejects.toThrow(/toolCallId/);
    expect(threads()).toBe(baseline);
    await expect(callHook(path.join(dir, 'nope.wasm'), { seam: 'tools/pre-execute', payload })).rejects.toThrow(/ENOENT/);
    expect(threads()).toBe(baseline);
    await expect(callHook(payload, { seam: 'tools/pre-execute', payload })).rejects.toBeInstanceOf(ConfigError);
    expect(threads()).toBe(baseline);
    expect((await callHook(wasm('unknown-import'), { seam: 'tools/pre-execute', payload })).fault?.kind).toBe('load');
    expect(threads()).toBe(baseline);
  });
});

describe('hookbox inspect (command function)', () => {
  it('describes a module without running it', async () => {
    const report = await inspectHook(wasm('infinite-loop'));
    expect(report.file).toBe(wasm('infinite-loop'));
    expect(report.seams.length).toBeGreaterThan(0);
    expect(report.memory).toMatchObject({ min: expect.any(Number), imported: false });
    await expect(inspectHook(path.join(dir, 'nope.wasm'))).rejects.toThrow(/cannot read the file \(ENOENT\)/);
  });
});

describe('hookbox call --json as a child process', () => {
  // A `call` that went missing from the program fails here (and the child processes below fail with it).
  it('the hookbox program has a `call` command', async () => {
    expect((await buildProgram()).commands.map((command) => command.name())).toContain('call');
  });

  it('prints exactly one JSON object, and exits 1, for a fault decision', async () => {
    // The seam's safe decision is printed; the exit code says the hook itself failed.
    const failed = await run(process.execPath, [BIN, 'call', wasm('infinite-loop'), '--seam', 'tools/pre-execute', '--payload', payload, '--timeout-ms', '100', '--json']).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const stdout = failed?.stdout ?? '';
    const report = JSON.parse(stdout) as { decision: unknown; fault: { kind: string } | null; durationMs: number };
    expect(Object.keys(report).sort()).toEqual(['decision', 'durationMs', 'fault']);
    expect(report.fault?.kind).toBe('timeout');
    expect(report.decision).toMatchObject({ action: 'ask' });
  });

  it('keeps plugin stdio off the real stdout and exits non-zero on unusable input', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'call', wasm('wasi-attempts'), '--seam', 'tools/pre-execute', '--payload', payload, '--json']);
    expect(stdout).not.toContain('HOOKBOX-CORPUS-WASI-LEAK');
    expect(JSON.parse(stdout)).toMatchObject({ fault: null });
    await expect(run(process.execPath, [BIN, 'call', wasm('deny'), '--seam', 'nope', '--payload', payload, '--json'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown seam "nope"'),
    });
  });
});
