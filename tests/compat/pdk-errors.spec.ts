// What goes wrong in an extism-js plugin comes back as a plugin-error whose
// message and stack point at the author's files (the source map embedded by
// `hookbox build`, applied by the host); async exports settle inside the call;
// and what the engine does not have is refused at build time, by name.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import type { HookLogEntry } from '../../host/runner/types.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { tempDir } from '../pdk/support.ts';
import { type LoadedPlugin, buildError, loadPlugin, tryBuild, writeProject } from './pdk-support.ts';

const VALIDATE = `export function checkPositive(value: number): number {
  if (!(value > 0)) {
    throw new RangeError(\`bad input: \${value}\`);
  }
  return value;
}
`;

const ERRORS_PLUGIN = `import { checkPositive } from './validate.ts';

export function strict(): number {
  const n = Number(Host.inputString());
  Host.outputString(String(checkPositive(n)));
  return 0;
}

export async function rejects(): Promise<number> {
  await null;
  checkPositive(-1);
  return 0;
}

export async function pending(): Promise<number> {
  await new Promise(() => {});
  return 0;
}

export function clock(): number {
  Host.outputString(String(Date.now()));
  return 0;
}
`;

let dir: string;
let cleanup: () => Promise<void>;
let built: BuildHookResult | Error;
let runner: HookRunner;
const logs: HookLogEntry[] = [];
let plugin: LoadedPlugin;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeProject(dir, { 'errors/index.ts': ERRORS_PLUGIN, 'errors/validate.ts': VALIDATE });
  built = await tryBuild(join(dir, 'errors/index.ts'), join(dir, 'out/errors/plugin.wasm'));
  runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
  if (!(built instanceof Error)) plugin = await loadPlugin(runner, logs, built, { exports: ['strict', 'rejects', 'pending', 'clock'] });
}, 900_000);

afterAll(async () => {
  await plugin?.hook.close();
  await runner?.close();
  await cleanup?.();
});

function faultOf(outcome: Awaited<ReturnType<LoadedPlugin['call']>>) {
  if (outcome.type !== 'fault') throw new Error(`expected a fault, got output ${String(outcome.output)}`);
  return outcome.fault;
}

describe('a thrown error', () => {
  it('answers normally when nothing throws', async () => {
    expect(await plugin.text('strict', '5')).toBe('5');
  });

  it('is a plugin-error with its message, and its stack points at the author\'s file and line', async () => {
    const fault = faultOf(await plugin.call('strict', '-3'));
    expect(fault.kind).toBe('plugin-error');
    expect(fault.message).toContain('RangeError: bad input: -3');
    expect(fault.message).toMatch(/checkPositive \(validate\.ts:3:\d+\)/);
    expect(fault.message).toMatch(/strict \(index\.ts:5:\d+\)/);
    expect(fault.message).not.toContain('hook.js:');
  });
});

describe('async exports', () => {
  it('a rejection is a plugin-error with its message and mapped stack', async () => {
    const fault = faultOf(await plugin.call('rejects'));
    expect(fault.kind).toBe('plugin-error');
    expect(fault.message).toContain('RangeError: bad input: -1');
    expect(fault.message).toMatch(/validate\.ts:3:\d+/);
  });

  it('a promise still pending when the call returns is a fault, never an empty answer', async () => {
    const fault = faultOf(await plugin.call('pending'));
    expect(fault.kind).toBe('plugin-error');
    expect(fault.message).toContain('still pending');
  });
});

describe('Date without the clock grant', () => {
  it('reads epoch 0, and the log says so once per instance', async () => {
    const before = logs.length;
    expect(await plugin.text('clock', '', 'clock-session')).toBe('0');
    expect(await plugin.text('clock', '', 'clock-session')).toBe('0');
    const notes = logs.slice(before).filter((l) => l.message.includes('clock'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ level: 'warn', session: 'clock-session' });
    expect(notes[0]?.message).toMatch(/without the clock grant.*1970-01-01/);
  });
});

describe('build-time refusals', () => {
  it('a module that is neither a defineHook default nor a set of functions: what was found, what is accepted', async () => {
    await writeProject(dir, { 'refuse/number/index.js': 'module.exports = 42;\n' });
    const message = await buildError(join(dir, 'refuse/number/index.js'), join(dir, 'out/refuse-number.wasm'));
    expect(message).toContain('found a number');
    expect(message).toContain('accepted: `export default defineHook({...})`');
    expect(message).toContain('module.exports = { greet }');
  });

  it('a global the engine lacks fails the build, naming it, in plain JavaScript too', async () => {
    await writeProject(dir, {
      'refuse/table/index.js': 'function show() { console.profile(); }\nmodule.exports = { show };\n',
      'refuse/timer/index.js': "export function later() { setImmediate(() => {}); return 0; }\n",
      'refuse/digest/index.js': "export function hash() { crypto.subtle.sign('HMAC', null, new ArrayBuffer(0)); return 0; }\n",
      'refuse/pattern/index.ts': "export function match(): number { return new WebSocket('ws://x') ? 0 : 1; }\n",
    });
    expect(await buildError(join(dir, 'refuse/table/index.js'), join(dir, 'out/t.wasm'))).toMatch(/index\.js:1:\d+: .*Property 'profile' does not exist on type 'Console'/);
    expect(await buildError(join(dir, 'refuse/timer/index.js'), join(dir, 'out/s.wasm'))).toMatch(/index\.js:1:\d+: .*Cannot find name 'setImmediate'/);
    expect(await buildError(join(dir, 'refuse/digest/index.js'), join(dir, 'out/d.wasm'))).toMatch(/index\.js:1:\d+: .*Property 'sign' does not exist on type 'SubtleCrypto'/);
    expect(await buildError(join(dir, 'refuse/pattern/index.ts'), join(dir, 'out/p.wasm'))).toMatch(/index\.ts:1:\d+: .*Cannot find name 'WebSocket'/);
  });
});
