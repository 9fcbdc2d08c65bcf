import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AgentAnswer, AgentBridge } from '../agents/index.ts';
import { AGENT_BRIDGES, isAgentName } from '../agents/index.ts';
import { printable } from '../text/index.ts';
import { ConfigError } from '../errors.ts';
import { LOOP_DEFAULTS } from '../loop/defaults.ts';
import { AuthGate, loopbackHost } from './auth-gate.ts';
import { CONFIG_HEADER, REFUSED_HEADER, canonicalConfigPath, healthProof } from './config-identity.ts';
import { FRAME_HEADER, FRAME_LINE, frameAnswer, refusalWord } from './answer-frame.ts';
import { CopyTable } from './copy-table.ts';
import { NONCE_HEADER, PROOF_HEADER, answerProof, keyFileOf, requestNonce, writeProofKey } from './listener-proof.ts';
import { type Decided, decideAgentEvent } from './decide.ts';
import { ensurePrivateDir } from './paths.ts';
import type { ServedHooks } from './served-hooks.ts';
import { SessionTable } from './session-table.ts';

/** Largest request body accepted (a PostToolUse carries the tool's whole output). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface DecisionServerOptions {
  readonly hooks: ServedHooks;
  /** Loopback TCP port (0 = any free port); absent = no TCP listener. */
  readonly port?: number;
  /** Unix socket path; absent = no socket. */
  readonly socket?: string;
  /** Required as `Authorization: Bearer <token>` on TCP (the socket is protected by its folder's permissions). */
  readonly token?: string;
  readonly maxBodyBytes?: number;
  readonly maxSessions?: number;
  readonly idleMs?: number;
  readonly maxContinuations?: number;
  /** A fixed folder for session logs instead of `<cwd>/.hookbox/sessions`. */
  readonly logDir?: string;
  /** One line per request (already sanitized); default stderr. */
  readonly log?: (line: string) => void;
  /**
   * Whether the config on disk is no longer the one served (checked before
   * each decision): then the event is refused as another config's (a socket
   * client decides it in-process, by the config as it is now) and
   * `onConfigChanged` runs — the self-started server leaves, to be replaced.
   */
  readonly configChanged?: () => boolean;
  readonly onConfigChanged?: () => void;
}

/** Response header carrying the command-hook exit code of the answer (`hookbox hook` obeys it). */
export const EXIT_HEADER = 'x-hookbox-exit';

/**
 * `hookbox serve`: answers agents' hook events over loopback HTTP and/or a
 * unix socket, `POST /hooks/<agent>` with the agent's own hook JSON. The
 * answer is the agent's (a 200 with its JSON); anything refused — unknown
 * agent, bad token, oversized or malformed body — gets a 4xx whose body is
 * still the agent's fail-closed answer.
 */
export class DecisionServer {
  readonly #options: DecisionServerOptions;
  readonly #sessions: SessionTable;
  /** Copilot CLI's two copies of one event (its own format and a Claude Code setup): hooks run once. */
  readonly #copies = new CopyTable();
  readonly #servers: http.Server[] = [];
  readonly #token: string | undefined;
  readonly #gate: AuthGate | undefined;
  /** The listener-proof key of the socket (host/serve/listener-proof.ts), once it listens. */
  #proofKey: string | undefined;
  #inFlight = 0;
  #drained: (() => void) | undefined;
  #sweep: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;
  /** The TCP port actually bound (when `port` was 0). */
  port: number | undefined;

  constructor(options: DecisionServerOptions) {
    this.#options = options;
    if (options.port !== undefined && options.token === undefined) throw new ConfigError('hookbox serve: a TCP listener needs a bearer token');
    this.#token = options.token;
    this.#gate = options.token === undefined ? undefined : new AuthGate(options.token);
    this.#sessions = new SessionTable({
      maxSessions: options.maxSessions ?? 32,
      idleMs: options.idleMs ?? 30 * 60_000,
      ...(options.logDir !== undefined && { logDir: options.logDir }),
      onClose: (key) => options.hooks.forgetSession(key.slice(key.indexOf(':') + 1)),
    });
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  async listen(): Promise<void> {
    const { port, socket } = this.#options;
    if (port === undefined && socket === undefined) throw new ConfigError('hookbox serve: give --port, --socket or both');
    if (port !== undefined) {
      const server = this.#server(true);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      this.port = (server.address() as { port: number }).port;
    }
    if (socket !== undefined) {
      ensurePrivateDir(path.dirname(socket));
      if (existsSync(socket)) {
        if (!lstatSync(socket).isSocket()) throw new ConfigError(`${socket}: exists and is not a socket; refusing to replace it`);
        unlinkSync(socket); // a stale socket of a server that did not shut down
      }
      // The key before the socket: a client that finds the socket finds the key of the server on it.
      this.#proofKey = writeProofKey(socket);
      const server = this.#server(false);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        // The folder is 0700; the socket is made 0600 as soon as it exists.
        // The kernel takes 107 bytes of socket path: a deeper project's socket is bound by its path from here.
        server.listen(connectablePath(socket), () => resolve());
      });
      chmodSync(socket, 0o600);
    }
    this.#sweep = setInterval(() => this.#sessions.sweep(), 30_000).unref();
  }

  #server(tcp: boolean): http.Server {
    const server = http.createServer((req, res) => void this.#handle(req, res, tcp));
    if (tcp) server.on('connection', (socket) => this.#gate?.admit(socket));
    server.keepAliveTimeout = 60_000;
    server.headersTimeout = 10_000;
    server.requestTimeout = 60_000;
    this.#servers.push(server);
    return server;
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse, tcp: boolean): Promise<void> {
    const started = process.hrtime.bigint();
    this.#inFlight += 1;
    let decided: Decided = { answer: { exitCode: 2, stdout: '', stderr: 'hookbox: not decided\n' }, decision: 'error' };
    let status = 200;
    let agent = '-';
    try {
      const url = new URL(req.url ?? '/', 'http://hookbox');
      if (tcp && !loopbackHost(req.headers.host)) {
        status = 403;
        decided = { answer: { exitCode: 2, stdout: '', stderr: 'hookbox: refused: the Host header does not name loopback\n' }, decision: 'foreign-host' };
        this.#sendAndClose(req, res, status, decided.answer);
        return;
      }
      // The token is checked from the headers alone: an unauthenticated body is never read.
      const authorized = !tcp || this.#gate?.authorized(req) === true;
      const health = req.method === 'GET' && url.pathname === '/health';
      // `/hooks/<agent>`, or `/hooks/<agent>/<event>` for an agent whose events carry no name (Copilot CLI).
      const match = /^\/hooks\/([a-z0-9-]+)(?:\/([A-Za-z]{1,40}))?$/.exec(url.pathname);
      const routed = match?.[2];
      const bridge: AgentBridge | undefined = match !== null && isAgentName(match[1]!) ? AGENT_BRIDGES[match[1]!] : undefined;
      if (!authorized) {
        status = 401;
        const reason = 'unauthenticated request (a bearer token is required)';
        decided = { answer: bridge?.failClosed(bridge?.eventOnCommandLine === true ? routed : undefined, reason) ?? { exitCode: 2, stdout: '', stderr: `hookbox: ${reason}\n` }, decision: 'unauthenticated' };
        this.#sendAndClose(req, res, status, decided.answer);
        return;
      }
      if (health) {
        decided = { answer: this.#health(url), decision: 'health' };
        this.#send(res, status, decided.answer, tcp);
        return;
      }
      if (bridge === undefined || req.method !== 'POST') {
        req.resume();
        status = 404;
        decided = { answer: { exitCode: 2, stdout: '', stderr: 'hookbox: no such endpoint (POST /hooks/<agent>[/<event>])\n' }, decision: 'invalid' };
        this.#send(res, status, decided.answer, tcp);
        return;
      }
      agent = bridge.name;
      const body = await readBody(req, this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      // An agent whose events carry no name: the route's, never one read from the JSON (a tool's
      // arguments could hold a `hook_event_name`); any other agent: the JSON's, the route's ignored.
      const named = bridge.eventOnCommandLine === true ? routed : undefined;
      const sniffed = (text: string): string | undefined => (bridge.eventOnCommandLine === true ? named : sniffEvent(text));
      const event = named ?? (body.text === undefined ? undefined : sniffed(body.text));
      const foreign = this.#otherConfig(req);
      const changed = foreign === undefined && this.#options.configChanged?.() === true;
      if (foreign !== undefined || changed) {
        // A client of another project, or a config changed since the start: never decided here. Over the
        // socket the client then decides in-process; over http the agent cannot, so it gets the closed
        // answer (on 200, the only status Claude Code reads a decision from).
        const reason = changed
          ? `the config changed on disk since this hookbox server started (${this.#options.hooks.config?.path ?? '?'}); it does not decide by the old one`
          : `this hookbox server serves ${this.#options.hooks.config?.path ?? '?'}, not ${foreign}; start one for this project`;
        if (changed) this.#options.onConfigChanged?.();
        status = tcp ? 200 : 421;
        decided = { answer: bridge.failClosed(event ?? sniffed(body.head), reason), decision: 'other-config', ...(event !== undefined && { event }) };
        if (!tcp) res.setHeader(REFUSED_HEADER, 'other-config');
      } else if (body.text === undefined) {
        status = 413;
        decided = { answer: bridge.failClosed(event ?? sniffed(body.head), `request body over ${body.limit} bytes`), decision: 'oversized' };
      } else {
        let input: unknown;
        try {
          input = JSON.parse(body.text);
        } catch (error) {
          status = 400;
          decided = { answer: bridge.failClosed(event, `request body is not JSON (${(error as Error).message})`), decision: 'invalid', ...(event !== undefined && { event }) };
        }
        if (status === 200) {
          decided = await decideAgentEvent(
            bridge,
            input,
            {
              bus: this.#options.hooks.bus,
              sessions: this.#sessions,
              maxContinuations: this.#options.maxContinuations ?? LOOP_DEFAULTS.maxContinuations,
              keepReplacedOriginals: this.#options.hooks.keepReplacedOriginals,
              copies: this.#copies,
            },
            named,
          );
          if (decided.decision === 'invalid') status = 400;
        }
      }
      this.#send(res, status, decided.answer, tcp);
    } catch (error) {
      status = 500;
      decided = { answer: { exitCode: 2, stdout: '', stderr: `hookbox: server error: ${(error as Error).message}\n` }, decision: 'error' };
      if (!res.headersSent) this.#send(res, status, decided.answer, tcp);
    } finally {
      const us = Number((process.hrtime.bigint() - started) / 1000n);
      const line = [agent, decided.sessionId ?? '-', decided.event ?? '-', decided.decision, `${status}`, `${us}µs`].map((part) => printable(part, { maxLength: 200 })).join(' ');
      (this.#options.log ?? ((text: string) => process.stderr.write(`${text}\n`)))(`hookbox serve: ${line}`);
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#drained?.();
    }
  }

  /** The config path a client named when it is not the one this server serves; undefined when it matches or none was named. */
  #otherConfig(req: http.IncomingMessage): string | undefined {
    const named = req.headers[CONFIG_HEADER];
    const served = this.#options.hooks.config;
    if (typeof named !== 'string' || served === undefined) return undefined;
    let file: string;
    try {
      file = canonicalConfigPath(decodeURIComponent(named));
    } catch {
      return printable(named, { maxLength: 300 });
    }
    return file === served.path ? undefined : printable(file, { maxLength: 300 });
  }

  /** `GET /health`: which config this server serves, and (`?nonce=`, with a token) the proof that it holds the token. */
  #health(url: URL): AgentAnswer {
    const served = this.#options.hooks.config;
    const nonce = url.searchParams.get('nonce');
    const proof =
      nonce !== null && /^[A-Za-z0-9_-]{16,128}$/.test(nonce) && this.#token !== undefined ? healthProof(this.#token, nonce, served?.identity ?? '') : undefined;
    const state = { ok: true, sessions: this.#sessions.size, ...(served !== undefined && { config: served.path, identity: served.identity }), ...(proof !== undefined && { proof }) };
    return { exitCode: 0, stdout: `${JSON.stringify(state)}\n`, stderr: '' };
  }

  /** Answers and closes the connection without reading the request body. */
  #sendAndClose(req: http.IncomingMessage, res: http.ServerResponse, status: number, answer: AgentAnswer): void {
    res.setHeader('connection', 'close');
    res.on('finish', () => {
      req.socket.end();
      setTimeout(() => req.socket.destroy(), 1_000).unref();
    });
    this.#send(res, status, answer, true);
  }

  #send(res: http.ServerResponse, status: number, answer: AgentAnswer, tcp: boolean): void {
    // A client that reads no headers (the sh client) asked for the exit code in the body.
    const framed = res.req.headers[FRAME_HEADER] === FRAME_LINE;
    const refusedHeader = res.getHeader(REFUSED_HEADER);
    const refused = typeof refusedHeader === 'string' ? refusedHeader : undefined;
    const text = answer.exitCode === 0 ? answer.stdout : answer.stderr;
    // On the socket, a client's nonce gets the proof that this is the user's own server (never on TCP: the token guards it).
    const nonce = requestNonce(res.req.headers[NONCE_HEADER]);
    const proof = nonce !== undefined && !tcp && this.#proofKey !== undefined ? answerProof(this.#proofKey, nonce, answer.exitCode, refusalWord(refused), text) : undefined;
    const body = framed ? frameAnswer(answer, refused, proof) : text;
    res.writeHead(status, {
      'content-type': framed ? 'text/plain; charset=utf-8' : answer.exitCode === 0 && body !== '' ? 'application/json' : 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      [EXIT_HEADER]: String(answer.exitCode),
      ...(proof !== undefined && { [PROOF_HEADER]: proof }),
    });
    res.end(body);
  }

  /** Stops accepting, finishes the calls in flight, closes every session log and the hooks. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#sweep !== undefined) clearInterval(this.#sweep);
      const closed = this.#servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      for (const server of this.#servers) server.closeIdleConnections();
      if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      for (const server of this.#servers) server.closeAllConnections();
      await Promise.all(closed);
      this.#sessions.closeAll();
      await this.#options.hooks.close();
      const socket = this.#options.socket;
      if (socket !== undefined && existsSync(socket)) unlinkSync(socket);
      if (socket !== undefined && this.#proofKey !== undefined && existsSync(keyFileOf(socket))) unlinkSync(keyFileOf(socket));
    })();
    return this.#closing;
  }
}

/** A unix socket path the kernel takes: the absolute one, or (past 107 bytes) the same file relative to the cwd. */
export function connectablePath(socket: string): string {
  if (Buffer.byteLength(socket) <= 107) return socket;
  const near = path.relative(process.cwd(), socket);
  return Buffer.byteLength(near) <= 107 ? near : socket;
}

/** The agent's event name from raw body text, when it can be read (for a fail-closed answer to a body that does not parse). */
function sniffEvent(text: string): string | undefined {
  return /"hook_event_name"\s*:\s*"([A-Za-z]{1,40})"/.exec(text)?.[1];
}

/** Reads a body up to `limit` bytes; past it, drains the rest and returns only its head. */
function readBody(req: http.IncomingMessage, limit: number): Promise<{ text?: string; head: string; limit: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(over ? { head: text.slice(0, 4096), limit } : { text, head: '', limit });
    });
    req.on('error', reject);
  });
}
