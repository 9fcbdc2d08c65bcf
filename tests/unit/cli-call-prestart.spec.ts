/**
 * `hookbox call` starts its worker thread before its modules load
 * (host/cli/main.ts `prestart`, host/cli/call-workers.ts): the call runs on
 * that worker, and every way the command can stop early (bad input, a
 * missing option, `--help`, an unknown command) still closes it, so no
 * worker keeps the process alive. Run in-process through `main`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCallWorkers } from '../../host/cli/call-workers.ts';
import { buildProgram, main } from '../../host/cli/main.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';
import { skipUnless } from '../helpers/skips.ts';

let dir: string;
let payload: string;
let output: string[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-prestart-'));
  payload = path.join(dir, 'pre.json');
  await writeFile(payload, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }));
  await writeCorpusWasm('deny', dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  output = [];
  const capture = (chunk: string | Uint8Array): boolean => {
    output.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const hookbox = (...args: string[]) => main(['node', 'hookbox', ...args]);
const deny = () => path.join(dir, 'deny.wasm');

/** OS threads of this process (a worker thread is one): Linux only. */
const TASKS = '/proc/self/task';
const threads = (): number => readdirSync(TASKS).length;

describe.skipIf(skipUnless('hookbox call: the prestarted worker is closed on every path', existsSync(TASKS) ? undefined : '/proc/self/task is missing (not Linux)'))('hookbox call: the prestarted worker is closed on every path (skipped where /proc/self/task is missing, i.e. off Linux)', () => {
  it('a call decides on it and closes it', async () => {
    await hookbox('call', deny(), '--seam', 'tools/pre-execute', '--payload', payload, '--json'); // libuv and V8 threads started once
    const baseline = threads();
    output = [];
    expect(await hookbox('call', deny(), '--seam', 'tools/pre-execute', '--payload', payload, '--json')).toBe(0);
    expect(JSON.parse(output.join(''))).toMatchObject({ decision: { action: 'deny' }, fault: null });
    expect(threads()).toBe(baseline);
  });

  it.each([
    ['a payload that is not the seam’s (found while the worker boots)', ['--seam', 'tools/pre-execute', '--payload', 'PAYLOAD_WRONG'], 2, /toolCallId/],
    ['an unknown seam', ['--seam', 'tools/nope', '--payload', 'PAYLOAD'], 2, /unknown seam "tools\/nope"/],
    ['a missing required option (commander stops before the action)', ['--seam', 'tools/pre-execute'], 1, /required option '--payload <file>' not specified/],
    ['an unknown option', ['--seam', 'tools/pre-execute', '--payload', 'PAYLOAD', '--bogus'], 1, /unknown option '--bogus'/],
  ])('%s: exit code, message, no worker left', async (_what, args, code, message) => {
    await hookbox('call', deny(), '--seam', 'tools/pre-execute', '--payload', payload, '--json');
    const baseline = threads();
    const wrong = path.join(dir, 'wrong.json');
    await writeFile(wrong, JSON.stringify({ toolName: 'bash' }));
    output = [];
    const resolved = args.map((arg) => (arg === 'PAYLOAD' ? payload : arg === 'PAYLOAD_WRONG' ? wrong : arg));
    expect(await hookbox('call', deny(), ...resolved)).toBe(code);
    expect(output.join('')).toMatch(message);
    expect(threads()).toBe(baseline);
  });

  it('--help and an unknown command leave no worker', async () => {
    const baseline = threads();
    expect(await hookbox('call', '--help')).toBe(0);
    expect(output.join('')).toContain('--payload <file>');
    expect(threads()).toBe(baseline);
    expect(await hookbox('calll', deny())).toBe(1);
    expect(output.join('')).toMatch(/unknown command 'calll'/);
    expect(threads()).toBe(baseline);
  });
});

describe('hookbox call on a worker started before the command loaded', () => {
  it('runs on that pool (no second worker) and closes it', async () => {
    const pool = startCallWorkers();
    const argv = ['node', 'hookbox', 'call', deny(), '--seam', 'tools/pre-execute', '--payload', payload, '--json'];
    const program = await buildProgram(argv, pool);
    await program.parseAsync(argv);
    expect(JSON.parse(output.join(''))).toMatchObject({ decision: { action: 'deny' } });
    expect(pool.started).toBe(1);
    expect(() => pool.pick()).toThrow(/the worker pool is closed/);
  });
});
