// The globals a hook sees: exactly what the hookbox JS engine installs
// (pdk/engine/src/prelude*.js) on top of ES2020. `hookbox build` type-checks
// every hook against this file instead of @extism/js-pdk's declarations, which
// may declare APIs hookbox lacks; so a hook that calls a
// global the engine does not have fails at build time, naming it.
// Shapes follow js-pdk's documented API. Two globals are the build's, not the
// engine's: `Buffer` and `URLPattern`, each injected only into hooks that use it
// (pdk/runtime/*-global.ts).

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

/** The hook's log: Extism log levels (log, info, dir, table, count, time* are info; trace is debug). */
interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
  trace(...data: any[]): void;
  /** Logs `value` as console.log does. */
  dir(value?: any, options?: any): void;
  dirxml(...data: any[]): void;
  /** Tab-separated rows, `(index)` first; `columns` picks and orders the columns. */
  table(tabularData?: any, properties?: string[]): void;
  /** Logs "Assertion failed[: data]" at error level when `condition` is falsy. */
  assert(condition?: boolean, ...data: any[]): void;
  count(label?: string): void;
  countReset(label?: string): void;
  /** Timers on performance.now() (virtual time without the clock grant). */
  time(label?: string): void;
  timeLog(label?: string, ...data: any[]): void;
  timeEnd(label?: string): void;
  /** Indents what follows by two spaces until groupEnd. */
  group(...label: any[]): void;
  groupCollapsed(...label: any[]): void;
  groupEnd(): void;
}
declare var console: Console;

/** `globalThis`, as in workers. */
declare var self: typeof globalThis;

interface DOMException extends Error {
  readonly name: string;
  readonly message: string;
  /** The legacy code of the name (NotFoundError 8, …), else 0. */
  readonly code: number;
}
declare var DOMException: {
  prototype: DOMException;
  new (message?: string, name?: string): DOMException;
};

type IntegerTypedArray = Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array;
type AlgorithmIdentifier = string | { name: string };
interface SubtleCrypto {
  /** SHA-1, SHA-256, SHA-384 or SHA-512; another name throws NotSupportedError. */
  digest(algorithm: AlgorithmIdentifier, data: ArrayBufferLike | ArrayBufferView): Promise<ArrayBuffer>;
}
interface Crypto {
  /** Fills an integer typed array (at most 65536 bytes) from the host's random source. */
  getRandomValues<T extends IntegerTypedArray>(array: T): T;
  /** A version 4 UUID from the host's random source. */
  randomUUID(): `${string}-${string}-${string}-${string}-${string}`;
  readonly subtle: SubtleCrypto;
}
declare var crypto: Crypto;

interface Performance {
  /**
   * Milliseconds: with the clock grant, real time since the instance first read the clock; without it,
   * virtual time (instruction ticks at 10 ns each). Plus the delays of the timers that have fired.
   */
  now(): number;
  /** Epoch milliseconds of that first read; 0 without the clock grant. */
  readonly timeOrigin: number;
  toJSON(): { timeOrigin: number };
}
declare var performance: Performance;

/** Timers run inside the call on a virtual clock: by due time, then scheduling order; none outlives the call. */
declare function setTimeout<A extends any[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
declare function setInterval<A extends any[]>(callback: (...args: A) => void, delay?: number, ...args: A): number;
declare function clearTimeout(id: number | undefined): void;
declare function clearInterval(id: number | undefined): void;
/** A job run after the current script, before any timer; one that throws fails the call. */
declare function queueMicrotask(callback: () => void): void;

interface EventInit {
  bubbles?: boolean;
  cancelable?: boolean;
  composed?: boolean;
}
interface Event {
  readonly type: string;
  readonly bubbles: boolean;
  readonly cancelable: boolean;
  readonly composed: boolean;
  readonly target: EventTarget | null;
  readonly currentTarget: EventTarget | null;
  readonly srcElement: EventTarget | null;
  readonly eventPhase: number;
  readonly defaultPrevented: boolean;
  readonly returnValue: boolean;
  readonly isTrusted: boolean;
  readonly timeStamp: number;
  cancelBubble: boolean;
  composedPath(): EventTarget[];
  preventDefault(): void;
  stopPropagation(): void;
  stopImmediatePropagation(): void;
}
declare var Event: {
  prototype: Event;
  new (type: string, eventInitDict?: EventInit): Event;
  readonly NONE: 0;
  readonly CAPTURING_PHASE: 1;
  readonly AT_TARGET: 2;
  readonly BUBBLING_PHASE: 3;
};
interface CustomEventInit<T = any> extends EventInit {
  detail?: T;
}
interface CustomEvent<T = any> extends Event {
  readonly detail: T;
}
declare var CustomEvent: {
  prototype: CustomEvent;
  new <T>(type: string, eventInitDict?: CustomEventInit<T>): CustomEvent<T>;
};
type EventListenerOrEventListenerObject = ((event: Event) => void) | { handleEvent(event: Event): void };
interface AddEventListenerOptions {
  capture?: boolean;
  once?: boolean;
}
/** A flat target: listeners in the order added, each (type, callback, capture) once. */
interface EventTarget {
  addEventListener(type: string, callback: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean): void;
  removeEventListener(type: string, callback: EventListenerOrEventListenerObject | null, options?: { capture?: boolean } | boolean): void;
  /** false when a listener called preventDefault on a cancelable event. */
  dispatchEvent(event: Event): boolean;
}
declare var EventTarget: {
  prototype: EventTarget;
  new (): EventTarget;
};

type HeadersInit = [string, string][] | Record<string, string> | Headers;
/** Names lower-cased; keys/values/entries are arrays, sorted by name. */
interface Headers {
  append(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  forEach(callbackfn: (value: string, key: string, parent: Headers) => void, thisArg?: any): void;
  entries(): [string, string][];
  keys(): string[];
  values(): string[];
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var Headers: {
  prototype: Headers;
  new (init?: HeadersInit): Headers;
};
/** Whole bodies only: no streams, Blob or FormData. */
type BodyInit = string | ArrayBufferLike | ArrayBufferView | URLSearchParams;
interface Body {
  readonly bodyUsed: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  json(): Promise<any>;
  text(): Promise<string>;
}
interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
  /** Redirects are never followed: "error" rejects on a 3xx, anything else answers it. */
  redirect?: 'follow' | 'error' | 'manual';
}
interface Request extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly redirect: string;
  clone(): Request;
}
declare var Request: {
  prototype: Request;
  new (input: string | URL | Request, init?: RequestInit): Request;
};
interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}
interface Response extends Body {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  readonly type: string;
  clone(): Response;
}
declare var Response: {
  prototype: Response;
  new (body?: BodyInit | null, init?: ResponseInit): Response;
  json(data: any, init?: ResponseInit): Response;
};
/**
 * An HTTP request through the host, as Http.request: only hosts the operator granted (`allowedHosts`), the
 * same caps, redirects never followed; a refusal rejects with Http.request's message. Settles inside the call.
 */
declare function fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;

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
/**
 * Node's Buffer API, from the npm `buffer` package (what js-pdk provides): `from`/`alloc`/`concat`,
 * hex/base64/base64url/latin1/utf8, reads and writes of integers and floats. `require('buffer')`
 * and `node:buffer` give the same class.
 */
declare var Buffer: typeof import('buffer').Buffer;
type Buffer = import('buffer').Buffer;

/** URL matching as the WHATWG URLPattern standard says, from the npm `urlpattern-polyfill` package. */
declare var URLPattern: typeof import('urlpattern-polyfill/urlpattern').URLPattern;
type URLPattern = import('urlpattern-polyfill/urlpattern').URLPattern;

/** A deep copy of plain data, Date, RegExp, Map, Set, ArrayBuffer and typed arrays (cycles kept). */
declare function structuredClone<T = any>(value: T): T;
