// extism-js plugins as authors have them — our own copies of the kinds of
// plugins js-pdk's examples cover — build unchanged with `hookbox build` and
// answer as js-pdk documents, through the real runner (real wasm, worker
// threads): CommonJS inside a "type": "module" package, `exports.x` style, and
// ESM TypeScript with host functions declared in a .d.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wasmApi } from '../pdk/support.ts';
import { compatSuite } from './pdk-support.ts';
import { skipUnless } from '../helpers/skips.ts';

const CJS_PLUGIN = `// js-pdk's documented shape: functions over the globals, module.exports at the end.
function greet() {
  const name = Host.inputString();
  Host.outputString(\`Hello, \${name}!\`);
}

function count_vowels() {
  const input = Host.inputString();
  let count = 0;
  for (const ch of input) if ('aeiouAEIOU'.includes(ch)) count++;
  Host.outputString(JSON.stringify({ count, total: count, vowels: 'aeiouAEIOU' }));
}

function greet_config() {
  const name = Config.get('name');
  if (name === null) throw new Error('this plugin needs config "name"');
  Host.outputString(\`Hello, \${name}!\`);
}

function count() {
  const n = Number(Var.getString('count') || '0') + 1;
  Var.set('count', String(n));
  Host.outputString(String(n));
}

module.exports = { greet, count_vowels, greet_config, count };
`;

const EXPORTS_STYLE_PLUGIN = `exports.greet = function () {
  Host.outputString('Hi ' + Host.inputString());
  return 0;
};
exports.code = function () {
  return 3;
};
`;

const HOSTFN_DTS = `declare module 'main' {
  export function sum(): I32;
  export function shout(): I32;
  export function early(): I32;
}

declare module 'extism:host' {
  interface user {
    add3(a: I32, b: I32, c: I32): I32;
    upper(ptr: PTR): PTR;
    wide(a: I64, b: I64, c: I64, d: I64): PTR;
  }
}
`;

const ESM_PLUGIN = `export function greet(): number {
  Host.outputString(\`Hello, \${Host.inputString()}!\`);
  return 0;
}

export function memory_roundtrip(): number {
  const text = Memory.fromString('héllo');
  const found = Memory.find(text.offset);
  const bytes = Memory.fromBuffer(new Uint8Array([1, 2, 3]).buffer);
  const json = Memory.fromJsonObject({ a: [1, 'two'] });
  const u32 = Memory.allocUInt32(4000000000);
  Host.outputString(
    JSON.stringify({
      text: found.readString(),
      len: Number(found.len),
      bytes: Array.from(new Uint8Array(bytes.readBytes())),
      json: json.readJsonObject(),
      u32: u32.readUInt32(),
    }),
  );
  for (const handle of [text, bytes, json, u32]) handle.free();
  return 0;
}

export function web(): number {
  const url = new URL('../b/./c?x=1&y=two words#top', 'https://Example.com:443/a/z');
  url.searchParams.append('z', 'é');
  const clone = structuredClone({ when: new Date(7), seen: new Set([1, 2]) });
  Host.outputString(
    JSON.stringify({
      href: url.href,
      host: url.host,
      y: url.searchParams.get('y'),
      b64: btoa('hookbox'),
      back: atob('aG9va2JveA=='),
      clone: [clone.when.getTime(), clone.seen.has(2)],
      utf8: Array.from(new TextEncoder().encode('é')),
      canParse: URL.canParse('not a url'),
    }),
  );
  return 0;
}

export async function later(): Promise<number> {
  const parts = await Promise.all([Promise.resolve('set'), Promise.resolve('tled')]);
  Host.outputString(parts.join(''));
  return 0;
}
`;

const HOSTFN_PLUGIN = `// At the top level, as js-pdk's own host_funcs example takes them.
const { wide } = Host.getFunctions();

export function sum(): number {
  const { add3 } = Host.getFunctions();
  Host.outputString(String(add3(1, 2, 3)));
  return 0;
}

export function shout(): number {
  const { upper } = Host.getFunctions();
  const input = Memory.fromString(Host.inputString());
  const answer = Memory.find(upper(input.offset));
  input.free();
  Host.outputString(answer.readString());
  answer.free();
  return 0;
}

export function early(): number {
  // 2^63 as a double (the literal 9223372036854775807 rounds to it), below -2^63, NaN, a BigInt.
  const answer = Memory.find(wide(9_223_372_036_854_775_807, -1e30, NaN, -42n));
  Host.outputString(answer.readString());
  return 0;
}
`;

const HOST_FUNCTIONS = `// The host side of the ESM plugin's imports (Extism host functions).
export function add3(_context, a, b, c) {
  return a + b + c;
}
export function upper(context, offset) {
  return context.store(context.read(offset).text().toUpperCase());
}
export function wide(context, ...values) {
  return context.store(values.map(String).join(','));
}
`;

/** Host-function imports are added with binaryen, an optional package (pdk/compiler/host-functions.ts). */
const BINARYEN = (() => {
  try {
    createRequire(import.meta.url).resolve('binaryen');
    return true;
  } catch {
    return false;
  }
})();

const suite = compatSuite(
  {
    'cjs/package.json': JSON.stringify({ name: 'cjs-plugin', type: 'module' }),
    'cjs/index.js': CJS_PLUGIN,
    'exports-style/index.js': EXPORTS_STYLE_PLUGIN,
    'esm/index.ts': ESM_PLUGIN,
    'hostfn/index.ts': HOSTFN_PLUGIN,
    'hostfn/index.d.ts': HOSTFN_DTS,
    'host-functions.mjs': HOST_FUNCTIONS,
  },
  ['cjs/index.js', 'exports-style/index.js', 'esm/index.ts', ...(BINARYEN ? ['hostfn/index.ts'] : [])],
);
const { built, load } = suite;

describe('a CommonJS plugin in a "type": "module" package (module.exports = {…})', () => {
  it('builds unchanged, every function of module.exports a wasm export', () => {
    const result = built['cjs/index.js'];
    if (result instanceof Error || result === undefined) throw result;
    expect(result.exports).toEqual(['count', 'count_vowels', 'greet', 'greet_config']);
  });

  it('greet and count-vowels answer as documented', async () => {
    const plugin = await load('cjs/index.js', { exports: ['greet', 'count_vowels'] });
    expect(await plugin.text('greet', 'Benjamin')).toBe('Hello, Benjamin!');
    expect(JSON.parse((await plugin.text('count_vowels', 'Hello, World!')) ?? '')).toEqual({ count: 3, total: 3, vowels: 'aeiouAEIOU' });
  });

  it('Config: reads what the host set, and a missing key is the author\'s own error', async () => {
    const configured = await load('cjs/index.js', { exports: ['greet_config'], config: { name: 'Steve' } });
    expect(await configured.text('greet_config')).toBe('Hello, Steve!');
    const bare = await load('cjs/index.js', { exports: ['greet_config'] });
    const outcome = await bare.call('greet_config');
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('Error: this plugin needs config "name"');
  });

  it('Var: state lives as long as the session\'s instance, one per session', async () => {
    const plugin = await load('cjs/index.js', { exports: ['count'] });
    expect(await plugin.text('count', '', 's1')).toBe('1');
    expect(await plugin.text('count', '', 's1')).toBe('2');
    expect(await plugin.text('count', '', 's2')).toBe('1');
  });
});

describe('an exports.x = function () {…} plugin', () => {
  it('builds unchanged and answers; a returned number is the export\'s code', async () => {
    const plugin = await load('exports-style/index.js', { exports: ['greet', 'code'] });
    expect(await plugin.text('greet', 'there')).toBe('Hi there');
    expect(await plugin.call('code')).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error', message: 'export "code" returned 3 without setting an error' } });
  });
});

describe('an ESM TypeScript plugin', () => {
  it('greet answers as documented', async () => {
    const plugin = await load('esm/index.ts', { exports: ['greet'] });
    expect(await plugin.text('greet', 'ESM')).toBe('Hello, ESM!');
  });

  it('Memory: fromString/fromBuffer/fromJsonObject/allocUInt32, find, read*, free', async () => {
    const plugin = await load('esm/index.ts', { exports: ['memory_roundtrip'] });
    expect(JSON.parse((await plugin.text('memory_roundtrip')) ?? '')).toEqual({ text: 'héllo', len: 6, bytes: [1, 2, 3], json: { a: [1, 'two'] }, u32: 4000000000 });
  });

  it('URL/URLSearchParams, atob/btoa, structuredClone, TextEncoder', async () => {
    const plugin = await load('esm/index.ts', { exports: ['web'] });
    expect(JSON.parse((await plugin.text('web')) ?? '')).toEqual({
      href: 'https://example.com/b/c?x=1&y=two+words&z=%C3%A9#top',
      host: 'example.com',
      y: 'two words',
      b64: 'aG9va2JveA==',
      back: 'hookbox',
      clone: [7, true],
      utf8: [0xc3, 0xa9],
      canParse: false,
    });
  });

  it('an async export is awaited inside the call', async () => {
    const plugin = await load('esm/index.ts', { exports: ['later'] });
    expect(await plugin.text('later')).toBe('settled');
  });
});

describe.skipIf(skipUnless('host functions declared in a .d.ts', BINARYEN ? undefined : 'the npm package binaryen, which adds the imports, is not installed', { required: 'binaryen' }))('host functions declared in a .d.ts (skipped, because the npm package binaryen, which adds the imports, is not installed)', () => {
  it('imports the declared host functions with their signatures, nothing else new', () => {
    const result = built['hostfn/index.ts'];
    if (result instanceof Error || result === undefined) throw result;
    const module = new wasmApi.Module(new Uint8Array(readFileSync(result.wasmPath)));
    const user = wasmApi.Module.imports(module).filter((i) => i.module === 'extism:host/user').map((i) => i.name);
    expect(user).toEqual(['add3', 'upper', 'wide']);
    const modules = new Set(wasmApi.Module.imports(module).map((i) => i.module));
    expect([...modules].sort()).toEqual(['extism:host/env', 'extism:host/user', 'wasi_snapshot_preview1']);
    expect(wasmApi.Module.exports(module).map((e) => e.name)).not.toContain('__hookbox_host_dispatch');
  });

  it('calls host functions: numbers both ways, and memory offsets', async () => {
    const plugin = await load('hostfn/index.ts', { exports: ['sum', 'shout'], hostFunctions: pathToFileURL(join(suite.dir, 'host-functions.mjs')).href });
    expect(await plugin.text('sum')).toBe('6');
    expect(await plugin.text('shout', 'quiet please')).toBe('QUIET PLEASE');
  });

  it('taken at the top level; an i64 argument from a number saturates as in js-pdk (NaN is 0), a BigInt passes exactly', async () => {
    const plugin = await load('hostfn/index.ts', { exports: ['early'], hostFunctions: pathToFileURL(join(suite.dir, 'host-functions.mjs')).href });
    expect(await plugin.text('early')).toBe('9223372036854775807,-9223372036854775808,0,-42');
  });

  it('a declared host function the runner does not provide refuses to load, naming it', async () => {
    await expect(load('hostfn/index.ts', { exports: ['sum'] })).rejects.toThrow(/add3|extism:host\/user/);
  });
});
