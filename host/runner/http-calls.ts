/**
 * The Extism kernel's `http_request`, `http_status_code` and `http_headers`
 * for one instance: deny-by-default against the hook's granted
 * `allowedHosts`, served synchronously through the worker's helper thread
 * (http-client.ts). A refusal or a failed request answers status 0 with the
 * reason as the body (the hookbox JS engine turns that into a catchable
 * `Error`); a wait that reaches the call's deadline ends the call as a
 * `timeout` fault.
 */
import { performance } from 'node:perf_hooks';
import { hostCovers } from './host-grant.ts';
import { httpHelper } from './http-client.ts';
import type { LogSink } from './log-sink.ts';

/** Largest response body a hook may receive by default; a bigger one is an error to the guest. */
export const HTTP_MAX_RESPONSE_BYTES = 1_048_576;

/**
 * Largest request JSON (url, method, headers) sent to the helper thread. Servers refuse heads past
 * 8–16 KiB anyway; a head of ~1M headers ran the helper out of its 64 MiB heap, and one 100 MiB
 * header string aborted the whole process (V8's heap limit is fatal for a single huge allocation).
 */
export const HTTP_MAX_REQUEST_BYTES = 65_536;

/** What an instance may reach over HTTP. Structured-cloneable (it crosses to a worker). */
export interface HttpGrant {
  /** Exact host names or `*.suffix` wildcards (the hook's granted `allowedHosts`). */
  readonly allowedHosts: readonly string[];
  /** The hook's per-call deadline: no request is waited for past it. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** The part of the SDK's CallContext the kernel functions use. */
interface KernelContext {
  read(addr: bigint): { bytes(): Uint8Array; string(): string } | null;
  store(input: string | Uint8Array): bigint;
}

/** Thrown through the guest when a request outlives the call's deadline; the adapter maps it to `timeout`. */
export class HttpDeadlineError extends Error {}

const encoder = new TextEncoder();

type Parsed = { ok: true; url: URL; method: string; headers: Record<string, string> } | { ok: false; reason: string };

/** The guest's request JSON `{url, method?, headers?}`, checked field by field (it is hostile). */
function parseRequest(text: string | undefined): Parsed {
  if (text === undefined) return { ok: false, reason: 'the request block is missing' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the request is not JSON ({"url", "method", "headers"})' };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, reason: 'the request is not a JSON object' };
  const { url, method, headers, header } = value as Record<string, unknown>;
  if (typeof url !== 'string') return { ok: false, reason: 'the request has no string "url"' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `"${url.slice(0, 200)}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: `only http: and https: URLs are served, not ${parsed.protocol}` };
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]{1,16}$/.test(method))) return { ok: false, reason: 'the request\'s "method" is not an HTTP method name' };
  // js-pdk sends "headers"; some Extism PDKs send "header".
  const given = headers ?? header ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return { ok: false, reason: 'the request\'s "headers" is not an object' };
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(given)) {
    if (typeof v !== 'string') return { ok: false, reason: `request header "${name.slice(0, 100)}" is not a string` };
    out[name] = v;
  }
  return { ok: true, url: parsed, method: (method ?? 'GET').toUpperCase(), headers: out };
}

/** The host name the grant is matched against (brackets off an IPv6 literal). */
function hostName(url: URL): string {
  const name = url.hostname.toLowerCase();
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

/** One instance's HTTP kernel functions and the state `http_status_code`/`http_headers` report. */
export class HttpCalls {
  readonly #grant: HttpGrant | undefined;
  readonly #sink: LogSink;
  #status = 0;
  #headers: string | null = null;
  #deadline = Number.POSITIVE_INFINITY;

  constructor(grant: HttpGrant | undefined, sink: LogSink) {
    this.#grant = grant;
    this.#sink = sink;
  }

  /** Whether this instance may make requests at all (its helper thread is then started at creation). */
  get granted(): boolean {
    return this.#grant !== undefined && this.#grant.allowedHosts.length > 0;
  }

  /** Marks the start of a call: requests are waited for until the hook's deadline from now. */
  beginCall(): void {
    this.#deadline = performance.now() + (this.#grant?.timeoutMs ?? 0);
    this.#status = 0;
    this.#headers = null;
  }

  /** The three kernel functions, for the SDK's `extism:host/env` namespace. */
  functions(): Record<'http_request' | 'http_status_code' | 'http_headers', (context: KernelContext, ...args: bigint[]) => bigint | number> {
    return {
      http_request: (context, requestAddr = 0n, bodyAddr = 0n) => this.#request(context, requestAddr, bodyAddr),
      http_status_code: () => this.#status,
      http_headers: (context) => (this.#headers === null ? 0n : context.store(this.#headers)),
    };
  }

  #request(context: KernelContext, requestAddr: bigint, bodyAddr: bigint): bigint {
    this.#status = 0;
    this.#headers = null;
    const block = context.read(requestAddr);
    const size = block?.bytes().byteLength ?? 0;
    if (size > HTTP_MAX_REQUEST_BYTES) return this.#fail(context, `the request is ${size} bytes, over the ${HTTP_MAX_REQUEST_BYTES}-byte cap on its url and headers`);
    const request = parseRequest(block?.string());
    if (!request.ok) return this.#fail(context, request.reason);
    const host = hostName(request.url);
    const allowed = this.#grant?.allowedHosts ?? [];
    if (!allowed.some((grant) => hostCovers(grant.toLowerCase(), host))) {
      const granted = allowed.length === 0 ? 'none are granted' : `granted: ${allowed.join(', ')}`;
      const reason = `host "${host}" is not in this hook's allowedHosts (${granted})`;
      this.#sink.note('warn', `Http.request denied: ${reason}`);
      return this.#fail(context, reason);
    }
    const body = bodyAddr === 0n ? undefined : context.read(bodyAddr)?.bytes().slice();
    const answer = httpHelper().request(
      {
        url: request.url.href,
        method: request.method,
        headers: request.headers,
        ...(body !== undefined && { body }),
        maxBytes: this.#grant?.maxResponseBytes ?? HTTP_MAX_RESPONSE_BYTES,
      },
      this.#deadline,
    );
    if (!answer.ok) {
      if (answer.timedOut) throw new HttpDeadlineError(`Http.request to ${request.url.href} had no answer within the hook's ${this.#grant?.timeoutMs} ms deadline`);
      return this.#fail(context, answer.reason);
    }
    this.#status = answer.status;
    this.#headers = JSON.stringify(answer.headers);
    return context.store(answer.body);
  }

  /** Status 0 and the reason as the response body: the engine's contract for "no response". */
  #fail(context: KernelContext, reason: string): bigint {
    this.#status = 0;
    return context.store(encoder.encode(reason));
  }
}
