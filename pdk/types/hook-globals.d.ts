// The globals a hook sees: exactly what the hookbox JS engine installs
// (pdk/engine/src/prelude*.js) on top of ES2020. `hookbox build` type-checks
// every hook against this file instead of @extism/js-pdk's declarations, which
// also declare APIs the engine lacks (URLPattern); so a hook that calls a
// global the engine does not have fails at build time, naming it.
// Shapes follow js-pdk's documented API.

/** WebAssembly value types of host-function signatures (js-pdk's names). */
declare type I32 = number;
declare type I64 = number | bigint;
declare type F32 = number;
declare type F64 = number;
/** An Extism memory offset (a `MemoryHandle`'s `offset`). */
declare type PTR = I64;

/** A plugin's exports (`declare module 'main' { export function greet(): I32; }`), checked against the build. */
declare module 'main' {}

/** Host functions the plugin imports: `declare module 'extism:host' { interface user { add3(a: I32, b: I32, c: I32): I32; } }`. */
declare module 'extism:host' {
  interface user {}
}

interface Host {
  /** The call's input as bytes. */
  inputBytes(): ArrayBuffer;
  /** The call's input as UTF-8 text. */
  inputString(): string;
  /** Sets the call's output. */
  outputBytes(output: ArrayBufferLike | ArrayBufferView): boolean;
  outputString(output: string): boolean;
  /** The host functions declared in `declare module 'extism:host' { interface user {…} }`, by name. */
  getFunctions(): import('extism:host').user;
  /** Calls declared host function number `id` (declaration order). */
  invokeFunc(id: number, ...args: unknown[]): unknown;
  invokeFunc0(id: number, ...args: unknown[]): void;
  arrayBufferToBase64(input: ArrayBufferLike | ArrayBufferView): string;
  base64ToArrayBuffer(input: string): ArrayBuffer;
}
declare var Host: Host;

declare var Config: {
  /** A config value the host set, or null. */
  get(key: string): string | null;
};

declare var Var: {
  /** Sets a variable that lives as long as the plugin instance (`null` deletes it). */
  set(name: string, value: string | ArrayBufferLike | ArrayBufferView | null): void;
  getBytes(name: string): ArrayBuffer | null;
  getString(name: string): string | null;
};

interface HttpRequest {
  url: string;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'CONNECT' | 'OPTIONS' | 'TRACE' | 'PATCH';
  headers?: Record<string, string | number | boolean>;
}
interface HttpResponse {
  body: string;
  status: number;
  /** Response headers, when the host passes them. */
  headers?: Record<string, string>;
}
declare var Http: {
  /** A synchronous request; only hosts the operator granted (`allowedHosts`) are reachable, others throw. */
  request(req: HttpRequest, body?: string | ArrayBufferLike | ArrayBufferView): HttpResponse;
};

interface MemoryHandle {
  offset: PTR;
  len: I64;
  readString(): string;
  readUInt32(): number;
  readUInt64(): bigint;
  readFloat32(): number;
  readFloat64(): number;
  /** js-pdk's name for readFloat64. */
  readUFloat64(): number;
  readBytes(): ArrayBuffer;
  readJsonObject<T = any>(): T;
  free(): void;
}
declare var MemoryHandle: {
  prototype: MemoryHandle;
  new (offset: PTR, len: I64): MemoryHandle;
};
interface Memory {
  fromString(str: string): MemoryHandle;
  fromBuffer(bytes: ArrayBufferLike | ArrayBufferView): MemoryHandle;
  fromJsonObject(obj: unknown): MemoryHandle;
  allocUInt32(i: number): MemoryHandle;
  allocUInt64(i: bigint): MemoryHandle;
  allocFloat32(i: number): MemoryHandle;
  allocFloat64(i: number): MemoryHandle;
  /** The block at `offset` (what a host function returned). */
  find(offset: PTR): MemoryHandle;
}
declare var Memory: Memory;

/** The hook's log: Extism log levels (log and info are info, trace is debug). */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
  trace(...data: any[]): void;
}
declare var console: Console;

interface TextEncoderEncodeIntoResult {
  read: number;
  written: number;
}
interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): TextEncoderEncodeIntoResult;
}
declare var TextEncoder: {
  prototype: TextEncoder;
  new (): TextEncoder;
};
interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBufferLike | ArrayBufferView): string;
}
declare var TextDecoder: {
  prototype: TextDecoder;
  /** UTF-8 only. */
  new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }): TextDecoder;
};

interface URLSearchParams {
  readonly size: number;
  append(name: string, value: string): void;
  delete(name: string, value?: string): void;
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string, value?: string): boolean;
  set(name: string, value: string): void;
  sort(): void;
  toString(): string;
  forEach(callbackfn: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: any): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var URLSearchParams: {
  prototype: URLSearchParams;
  new (init?: string[][] | Record<string, string> | string | URLSearchParams): URLSearchParams;
};
interface URL {
  hash: string;
  readonly host: string;
  readonly hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  readonly port: string;
  readonly protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
  toJSON(): string;
}
declare var URL: {
  prototype: URL;
  new (url: string | URL, base?: string | URL): URL;
  canParse(url: string | URL, base?: string | URL): boolean;
};

/** Base64 of a Latin-1 string. */
declare function btoa(data: string): string;
/** A Latin-1 string from base64. */
declare function atob(data: string): string;
/** A deep copy of plain data, Date, RegExp, Map, Set, ArrayBuffer and typed arrays (cycles kept). */
declare function structuredClone<T = any>(value: T): T;
