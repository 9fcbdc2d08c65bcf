// Runs inside QuickJS (ES2020). The module behind a hook's `Buffer` global and its
// `require('buffer')` / `node:buffer` (pdk/compiler/bundle.ts): the npm `buffer` package,
// plus the one encoding it lacks that Node (15+) and js-pdk have, `base64url`. Decoding
// base64url is decoding base64 (the package's decoder takes `-` and `_`, and missing
// padding); encoding is base64 with `-`/`_` and no `=`.
import * as npm from 'buffer/index.js';

const { Buffer } = npm;
/** The package's other exports, which its types leave out. */
const untyped = npm as unknown as Record<'SlowBuffer' | 'INSPECT_MAX_BYTES' | 'kMaxLength', unknown>;

type Loose = (this: unknown, ...args: unknown[]) => unknown;
const BASE64URL = 'base64url';
const isBase64Url = (value: unknown): boolean => typeof value === 'string' && value.toLowerCase() === BASE64URL;
/** The arguments with `base64url` read as `base64`: what the package's decoders do with it. */
const asBase64 = (args: unknown[]): unknown[] => args.map((a) => (isBase64Url(a) ? 'base64' : a));

const statics = Buffer as unknown as Record<'from' | 'byteLength' | 'isEncoding', Loose>;
const proto = Buffer.prototype as unknown as Record<'toString' | 'write' | 'fill', Loose>;

function decodingBase64Url(target: Record<string, Loose>, name: string): void {
  const original = target[name]!;
  target[name] = function (this: unknown, ...args: unknown[]) {
    return original.apply(this, asBase64(args));
  };
}
for (const name of ['from', 'byteLength'] as const) decodingBase64Url(statics, name);
for (const name of ['write', 'fill'] as const) decodingBase64Url(proto, name);

const isEncoding = statics.isEncoding;
statics.isEncoding = (encoding: unknown) => isBase64Url(encoding) || isEncoding(encoding) === true;

const toString = proto.toString;
proto.toString = function (this: unknown, ...args: unknown[]) {
  if (!isBase64Url(args[0])) return toString.apply(this, args);
  const base64 = toString.apply(this, ['base64', ...args.slice(1)]) as string;
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

// Also `globalThis.Buffer` once anything uses the module, for code that looks it up there.
if (!('Buffer' in globalThis)) Object.defineProperty(globalThis, 'Buffer', { value: Buffer, writable: true, configurable: true });

export { Buffer };
export const { SlowBuffer, INSPECT_MAX_BYTES, kMaxLength } = untyped;
