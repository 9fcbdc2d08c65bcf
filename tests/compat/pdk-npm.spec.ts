// What plugins written for extism-js take from npm, built by `hookbox build` and
// served by the real runner: the `Buffer` global and `require('buffer')` (the npm
// `buffer` package plus base64url, answers checked against Node's own Buffer);
// packages resolved as a bundler for the web resolves them (browser builds,
// CommonJS for `require`, ESM for `import`, `process.env.NODE_ENV` set); the
// URLPattern global; and a hook that never names them carries none of it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleHook } from '../../pdk/compiler/bundle.ts';
import { compatSuite, everyPluginBuilds, type LoadedPlugin } from './pdk-support.ts';

/** The same operations run in the plugin and, in the test, on Node's Buffer. */
const BUFFER_OPERATIONS = `(B) => {
  const text = 'héllo, wörld ✓';
  const b = B.from(text);
  const ints = B.alloc(12);
  ints.writeUInt32BE(0xdeadbeef, 0);
  ints.writeInt16LE(-1234, 4);
  ints.writeDoubleLE(Math.PI, 4);
  return {
    utf8: b.toString(),
    hex: b.toString('hex'),
    base64: b.toString('base64'),
    base64url: b.toString('base64url'),
    fromBase64url: B.from(b.toString('base64url'), 'base64url').toString(),
    fromUnpadded: B.from('aGk', 'base64').toString(),
    latin1: B.from('caf\\u00e9', 'latin1').toString('hex'),
    slice: b.toString('utf8', 0, 5),
    byteLength: [B.byteLength(text), B.byteLength('aGVsbG8', 'base64url')],
    isEncoding: ['utf8', 'base64url', 'latin1', 'nope'].map((e) => B.isEncoding(e)),
    concat: B.concat([B.from('ab'), B.from('cd')], 3).toString(),
    compare: [B.compare(B.from('a'), B.from('b')), B.from('abc').equals(B.from('abc'))],
    ints: ints.toString('hex'),
    reads: [ints.readUInt32BE(0), ints.readDoubleLE(4)],
    filled: B.alloc(5, 'ab').toString(),
    written: (() => { const w = B.alloc(6, 0x2e); w.write('aGk', 1, 'base64url'); return w.toString(); })(),
    json: B.from([1, 2, 3]).toJSON(),
    typed: B.from('x') instanceof Uint8Array,
  };
}`;

const BUFFER_PLUGIN = `const { Buffer: Required } = require('buffer');
const { Buffer: Prefixed } = require('node:buffer');
const operations = ${BUFFER_OPERATIONS};

function buffers() {
  Host.outputString(JSON.stringify(operations(Buffer)));
}

function same() {
  Host.outputString(JSON.stringify([Required === Buffer, Prefixed === Buffer, globalThis.Buffer === Buffer, Buffer.isBuffer(Required.from('x'))]));
}

module.exports = { buffers, same };
`;

/** A CommonJS dependency of the hook that requires `buffer` itself, as many npm packages do. */
const CHECKSUM_PACKAGE = {
  'node_modules/checksum/package.json': JSON.stringify({ name: 'checksum', version: '1.0.0', main: 'index.js' }),
  'node_modules/checksum/index.js': "const { Buffer } = require('buffer');\nexports.sum = (s) => Buffer.from(s).reduce((a, b) => a + b, 0);\nexports.isBuffer = (b) => Buffer.isBuffer(b);\n",
};

/** A package with a CommonJS build for `require`, an ESM one for `import`, and a browser build. */
const DUAL_PACKAGE = {
  'node_modules/dual/package.json': JSON.stringify({
    name: 'dual',
    version: '1.0.0',
    main: './node.cjs',
    exports: { '.': { browser: { import: './browser.mjs', require: './browser.cjs' }, import: './node.mjs', require: './node.cjs' } },
  }),
  'node_modules/dual/node.cjs': "module.exports = { build: 'node-cjs' };\n",
  'node_modules/dual/node.mjs': "export default { build: 'node-esm' };\n",
  'node_modules/dual/browser.cjs': "module.exports = { build: 'browser-cjs', mode: process.env.NODE_ENV };\n",
  'node_modules/dual/browser.mjs': "export default { build: 'browser-esm', mode: process.env.NODE_ENV };\n",
};

const PACKAGES_CJS_PLUGIN = `const checksum = require('checksum');
const dual = require('dual');
function packages() {
  Host.outputString(JSON.stringify({ sum: checksum.sum('abc'), isBuffer: checksum.isBuffer(Buffer.from('x')), dual }));
}
module.exports = { packages };
`;

const PACKAGES_ESM_PLUGIN = `import dual from 'dual';
export function packages() {
  Host.outputString(JSON.stringify({ dual }));
}
`;

/** URL's setters, which the URLPattern polyfill builds on: run in the plugin and on Node's URL. */
const URL_SETTERS = `(U) => {
  const seen = [];
  const u = new U('https://example.com/a?b#c');
  const steps = [
    ['hostname', 'Example.ORG'], ['hostname', 'x.com:80'], ['hostname', ''], ['hostname', 'a b'], ['hostname', 'h.test/rest'],
    ['port', '8080abc'], ['port', '443'], ['port', '99999'], ['port', ''], ['host', 'api.test:81/zz'], ['host', '[::1]:90'],
    ['protocol', 'http'], ['protocol', 'mailto'], ['protocol', 'wss:'],
  ];
  for (const [name, value] of steps) {
    u[name] = value;
    seen.push(u.href);
  }
  const other = new U('foo://h/p');
  other.hostname = 'q';
  other.protocol = 'https';
  other.port = '1';
  seen.push(other.href);
  return seen;
}`;

const URLPATTERN_PLUGIN = `const setters = ${URL_SETTERS};
export function urls() {
  Host.outputString(JSON.stringify(setters(URL)));
}

export function route() {
  const books = new URLPattern({ pathname: '/books/:id(\\\\d+)' });
  const hit = books.exec('https://example.com/books/123?x=1');
  const any = new URLPattern('https://*.example.com/*');
  Host.outputString(JSON.stringify([hit && hit.pathname.groups.id, books.test('https://example.com/books/abc'), any.test('https://api.example.com/v1'), any.test('https://example.org/')]));
}
`;

const PLAIN_PLUGIN = `export function greet() {
  Host.outputString('hello ' + Host.inputString());
}
`;

const suite = compatSuite(
  {
    'buffer/index.js': BUFFER_PLUGIN,
    'cjs/index.js': PACKAGES_CJS_PLUGIN,
    'esm/package.json': JSON.stringify({ name: 'esm', type: 'module' }),
    'esm/index.js': PACKAGES_ESM_PLUGIN,
    'plain/index.js': PLAIN_PLUGIN,
    'urlpattern/index.js': URLPATTERN_PLUGIN,
    ...Object.fromEntries(Object.entries({ ...CHECKSUM_PACKAGE, ...DUAL_PACKAGE }).flatMap(([path, text]) => [[`cjs/${path}`, text], [`esm/${path}`, text]])),
  },
  ['buffer/index.js', 'cjs/index.js', 'esm/index.js', 'urlpattern/index.js'],
);

const load = (name: string, exports: string[]): Promise<LoadedPlugin> => suite.load(`${name}/index.js`, { exports });

describe('Buffer', () => {
  it('answers as Node\'s Buffer does: encodings (base64url too), slices, concat, compare, integer and float reads and writes, JSON', async () => {
    const plugin = await load('buffer', ['buffers', 'same']);
    // The same source the plugin runs, applied to Node's Buffer.
    const operations = new Function(`return ${BUFFER_OPERATIONS}`)() as (b: typeof Buffer) => unknown;
    expect(JSON.parse((await plugin.text('buffers'))!)).toEqual(JSON.parse(JSON.stringify(operations(Buffer))));
  });

  it('require("buffer"), require("node:buffer") and globalThis.Buffer are the global\'s class', async () => {
    const plugin = await load('buffer', ['buffers', 'same']);
    expect(await plugin.text('same')).toBe('[true,true,true,true]');
  });

  it('a dependency\'s own require("buffer") gets the same class as the hook', async () => {
    const plugin = await load('cjs', ['packages']);
    expect(JSON.parse((await plugin.text('packages'))!)).toMatchObject({ sum: 294, isBuffer: true });
  });

  it('a hook that never names Buffer or requires buffer carries none of it', async () => {
    const plain = await bundleHook(join(suite.dir, 'plain', 'index.js'));
    const withBuffer = await bundleHook(join(suite.dir, 'buffer', 'index.js'));
    expect(withBuffer.code).toContain('base64url');
    expect(plain.code).not.toContain('base64url');
    expect(plain.code).not.toContain('INSPECT_MAX_BYTES');
    expect(plain.code.length).toBeLessThan(withBuffer.code.length / 5);
  });
});

describe('URLPattern', () => {
  it('URL\'s setters, which it builds on, answer as Node\'s URL does (a refused value leaves the URL as it was)', async () => {
    const plugin = await load('urlpattern', ['route', 'urls']);
    const setters = new Function(`return ${URL_SETTERS}`)() as (u: typeof URL) => unknown;
    expect(JSON.parse((await plugin.text('urls'))!)).toEqual(setters(URL));
  });

  it('matches and captures as the URLPattern standard says; a hook that never names it carries none of it', async () => {
    const plugin = await load('urlpattern', ['route', 'urls']);
    expect(await plugin.text('route')).toBe('["123",false,true,false]');
    expect((await bundleHook(join(suite.dir, 'plain', 'index.js'))).code).not.toContain('URLPattern');
  });
});

describe('npm packages', () => {
  it('require() gets a package\'s CommonJS build, import its ESM one, both the browser builds, with NODE_ENV production', async () => {
    const cjs = await load('cjs', ['packages']);
    expect(JSON.parse((await cjs.text('packages'))!).dual).toEqual({ build: 'browser-cjs', mode: 'production' });
    const esm = await load('esm', ['packages']);
    expect(JSON.parse((await esm.text('packages'))!).dual).toEqual({ build: 'browser-esm', mode: 'production' });
  });
});

everyPluginBuilds(suite);
