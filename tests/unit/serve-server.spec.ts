/**
 * `DecisionServer` request by request: routes, the TCP door (Host, token,
 * strangers), `/health` and its proof, the config a client names, bodies
 * oversized or not JSON, the framed answer for the sh client, headers,
 * the request log line, a host error, shutdown with a call in flight, the
 * socket it replaces or refuses to. Real loopback and unix-socket
 * listeners, opened and closed by each test; the served hooks are a real
 * SeamBus with a native hook the test scripts (no wasm: every test runs in
 * milliseconds), behind the `ServedHooks` interface the server takes.
 */
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claudeCodeBridge, copilotBridge } from '../../host/agents/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { type NativeHandlers, SeamBus } from '../../host/events/index.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { healthProof } from '../../host/serve/config-identity.ts';
import { DEFAULT_MAX_BODY_BYTES, DecisionServer, type DecisionServerOptions, EXIT_HEADER, type ServedHooks } from '../../host/serve/index.ts';
import { connectablePath } from '../../host/serve/server.ts';
import { claudeEvent, preBash, promptSubmit } from '../helpers/claude-events.ts';
import { scriptedHook } from '../helpers/scripted-hook.ts';

const TOKEN = 'server-token-0123456789abcdefghijklmnopqrstuvwxyz';
const auth = { authorization: `Bearer ${TOKEN}` };

let dir: string;
let project: string;
let handlers: NativeHandlers;
let lines: string[];
let servers: DecisionServer[];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-server-')));
  project = path.join(dir, 'proj');
  handlers = {};
  lines = [];
  servers = [];
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

interface Hooks extends ServedHooks {
  readonly forgotten: string[];
  readonly closes: number;
}
/** The served hooks: one native hook answering per `handlers`, on a real bus. */
function hooks(extra: Partial<Pick<ServedHooks, 'config' | 'keepReplacedOriginals'>> = {}): Hooks {
  const bus = new SeamBus();
  bus.use(scriptedHook(() => handlers));
  const forgotten: string[] = [];
  let closes = 0;
  return {
    bus,
    ...extra,
    forgotten,
    get closes() {
      return closes;
    },
    forgetSession: (id) => forgotten.push(id),
    close: () => {
      closes += 1;
      return Promise.resolve();
    },
  };
}

/** A listening server (closed after the test): a socket in the temp folder and, with `port`, loopback TCP. */
async function serve(options: Partial<DecisionServerOptions> = {}): Promise<DecisionServer & { socketPath: string }> {
  const socket = path.join(dir, 'run', 'serve.sock');
  const server = new DecisionServer({ hooks: hooks(), socket, token: TOKEN, log: (line) => lines.push(line), ...options });
  servers.push(server);
  await server.listen();
  return Object.assign(server, { socketPath: options.socket ?? socket });
}

interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}
interface Target {
  readonly port?: number;
  readonly socket?: string;
}
/** Sends a request; a body given as parts is sent as that many HTTP chunks (each a `data` event of its own on the server). */
function send(target: Target, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | readonly string[] } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...(target.socket !== undefined ? { socketPath: target.socket } : { host: '127.0.0.1', port: target.port }),
        agent: false,
        path: options.path ?? '/hooks/claude-code',
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    const parts = typeof options.body === 'string' || options.body === undefined ? [options.body ?? ''] : options.body;
    for (const part of parts.slice(0, -1)) req.write(part);
    req.end(parts.at(-1));
  });
}
/** The reply's status, exit header, content type and body. */
const seen = (reply: Reply) => ({ status: reply.status, exit: reply.headers[EXIT_HEADER], type: reply.headers['content-type'], body: reply.body });
const json = (status: number, body: string) => ({ status, exit: '0', type: 'application/json', body });
const text = (status: number, exit: string, body: string) => ({ status, exit, type: 'text/plain; charset=utf-8', body });
/** The request log lines, their µs figure replaced. */
const logLines = () => lines.map((line) => line.replace(/ \d+µs$/, ' <µs>'));
/** An answer as the server sends it unframed: stdout on exit 0, stderr otherwise. */
function sent(status: number, answer: { exitCode: 0 | 2; stdout: string; stderr: string }) {
  return answer.exitCode === 0 ? (answer.stdout === '' ? text(status, '0', '') : json(status, answer.stdout)) : text(status, '2', answer.stderr);
}

describe('options', () => {
  it('a TCP listener needs a token; a server needs a port or a socket', async () => {
    expect(() => new DecisionServer({ hooks: hooks(), port: 0 })).toThrow(new ConfigError('hookbox serve: a TCP listener needs a bearer token'));
    const none = new DecisionServer({ hooks: hooks() });
    await expect(none.listen()).rejects.toThrow(new ConfigError('hookbox serve: give --port, --socket or both'));
    await expect(none.listen()).rejects.toBeInstanceOf(ConfigError);
  });

  it('a socket-only server needs no token and asks for none', async () => {
    const server = new DecisionServer({ hooks: hooks(), socket: path.join(dir, 'run', 's.sock'), log: (line) => lines.push(line) });
    servers.push(server);
    await server.listen();
    expect(server.port).toBeUndefined();
    expect(seen(await send({ socket: path.join(dir, 'run', 's.sock') }, { body: preBash(project, 's1', 'ls') }))).toStrictEqual(text(200, '0', ''));
  });
});

describe('a TCP-only server', () => {
  it('listens on loopback with no socket, decides, and closes; a port in use is refused', async () => {
    const server = new DecisionServer({ hooks: hooks(), port: 0, token: TOKEN, log: (line) => lines.push(line) });
    servers.push(server);
    await server.listen();
    expect(seen(await send({ port: server.port! }, { headers: auth, body: preBash(project, 's1', 'ls') }))).toStrictEqual(text(200, '0', ''));
    const taken = new DecisionServer({ hooks: hooks(), port: server.port!, token: TOKEN, log: () => {} });
    await expect(taken.listen()).rejects.toThrow(/EADDRINUSE/);
    await taken.close();
    await server.close();
    await expect(send({ port: server.port! }, { headers: auth, body: '{}' })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('routes', () => {
  it('POST /hooks/<agent> decides; anything else is 404 with the endpoint named', async () => {
    handlers['tools/pre-execute'] = () => ({ action: 'deny', reason: 'no' });
    const server = await serve();
    const target = { socket: server.socketPath };
    const body = preBash(project, 's1', 'ls');
    const notFound = text(404, '2', 'hookbox: no such endpoint (POST /hooks/<agent>[/<event>])\n');
    const replies = await Promise.all(
      [
        { path: '/hooks/claude-code' },
        { path: '/hooks/claude-code', method: 'GET' },
        { path: '/hooks/claude-code', method: 'PUT' },
        { path: '/hooks/nobody' },
        { path: '/hooks/Claude-Code' },
        { path: '/hooks/claude-code/' },
        { path: '/x/hooks/claude-code' },
        { path: '/hooks/claude-code/PreToolUse/more' },
        { path: '/hooks/claude-code/Pre2' },
        { path: `/hooks/claude-code/${'P'.repeat(41)}` },
        { path: '/health', method: 'POST' },
        { path: '/hooks' },
      ].map((route) => send(target, { ...route, body })),
    );
    const denied = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
    expect(replies.map(seen)).toStrictEqual([json(200, `${denied}\n`), ...Array(11).fill(notFound)]);
    expect(logLines().filter((line) => line.includes(' 404 '))).toStrictEqual(Array(11).fill('hookbox serve: - - - invalid 404 <µs>'));
  });

  it("an agent whose events carry no name is decided as the route's event; other agents ignore the route's", async () => {
    handlers['tools/pre-execute'] = () => ({ action: 'deny', reason: 'not here' });
    const server = await serve();
    const target = { socket: server.socketPath };
    const probe = JSON.stringify(copilotBridge.probe.event(project));
    const named = await send(target, { path: '/hooks/copilot/preToolUse', body: probe });
    expect(JSON.parse(named.body)).toMatchObject({ permissionDecision: 'deny' });
    expect(named.status).toBe(200);
    const unnamed = await send(target, { path: '/hooks/copilot', body: probe });
    expect(seen(unnamed)).toMatchObject({ status: 400, exit: '2' });
    const ignored = await send(target, { path: '/hooks/claude-code/UserPromptSubmit', body: preBash(project, 's1', 'ls') });
    expect(JSON.parse(ignored.body)).toStrictEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not here' } });
  });

  it("for other agents the route's event names nothing: not the closed answer's event, not an unauthenticated one's", async () => {
    const server = await serve({ port: 0 });
    const body = '{"hook_event_name":"PreToolUse", "tool';
    const notJson = await send({ socket: server.socketPath }, { path: '/hooks/claude-code/UserPromptSubmit', body });
    expect(JSON.parse(notJson.body).hookSpecificOutput.permissionDecision).toBe('deny');
    const unauthenticated = await send({ port: server.port! }, { path: '/hooks/claude-code/PreToolUse', body });
    expect(seen(unauthenticated)).toStrictEqual(sent(401, claudeCodeBridge.failClosed(undefined, 'unauthenticated request (a bearer token is required)')));
  });

  it('an event that does not validate is 400 with the closed answer', async () => {
    const server = await serve();
    const reply = await send({ socket: server.socketPath }, { body: claudeEvent(project, '../x', { hook_event_name: 'UserPromptSubmit', prompt: 'hi' }) });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ decision: 'block' });
    expect(logLines()).toStrictEqual(['hookbox serve: claude-code - UserPromptSubmit invalid 400 <µs>']);
  });
});

describe('bodies', () => {
  it('not JSON: 400, closed for the event its text names, the event in the log line', async () => {
    const server = await serve();
    const target = { socket: server.socketPath };
    const body = '{"hook_event_name" : "UserPromptSubmit", "prompt": "hi';
    const reply = await send(target, { body });
    let message = '';
    try {
      JSON.parse(body);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(seen(reply)).toStrictEqual(sent(400, claudeCodeBridge.failClosed('UserPromptSubmit', `request body is not JSON (${message})`)));
    await send(target, { body: 'nope' });
    expect(logLines()).toStrictEqual(['hookbox serve: claude-code - UserPromptSubmit invalid 400 <µs>', 'hookbox serve: claude-code - - invalid 400 <µs>']);
  });

  it('over the limit: 413, closed for the event the head names; a body of exactly the limit is read', async () => {
    const server = await serve({ maxBodyBytes: 8192 });
    const target = { socket: server.socketPath };
    const start = '{"hook_event_name":"PreToolUse","pad":"';
    const over = await send(target, { body: [`${start}${'x'.repeat(4000 - start.length)}`, `${'y'.repeat(5000)}"}`] });
    expect(seen(over)).toStrictEqual(sent(413, claudeCodeBridge.failClosed('PreToolUse', 'request body over 8192 bytes')));
    // The name past the first 4096 characters of what was kept: not read.
    const late = await send(target, { body: [`{"pad":"${'x'.repeat(5000)}","hook_event_name":"PreToolUse","more":"`, `${'y'.repeat(5000)}"}`] });
    expect(seen(late)).toStrictEqual(sent(413, claudeCodeBridge.failClosed(undefined, 'request body over 8192 bytes')));
    const notification = '{"hook_event_name":"Notification","pad":"';
    const exact = await send(target, { body: `${notification}${'x'.repeat(8192 - notification.length - 2)}"}` });
    expect(exact.status).toBe(400); // read whole: valid JSON, not a valid event
    expect(logLines()).toStrictEqual([
      'hookbox serve: claude-code - - oversized 413 <µs>',
      'hookbox serve: claude-code - - oversized 413 <µs>',
      'hookbox serve: claude-code - Notification invalid 400 <µs>',
    ]);
  });

  it('the default limit is 4 MiB', async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(4 * 1024 * 1024);
    const server = await serve();
    const start = '{"hook_event_name":"PreToolUse","pad":"';
    const reply = await send({ socket: server.socketPath }, { body: `${start}${'x'.repeat(DEFAULT_MAX_BODY_BYTES - start.length - 1)}"}` });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).hookSpecificOutput.permissionDecisionReason).toBe(`hookbox: request body over ${DEFAULT_MAX_BODY_BYTES} bytes`);
  });
});

describe('the TCP door', () => {
  it('a Host other than loopback is refused (403) and the connection closed; the socket does not check it', async () => {
    const server = await serve({ port: 0 });
    const reply = await send({ port: server.port! }, { headers: { ...auth, host: 'evil.example' }, body: preBash(project, 's1', 'ls') });
    expect(seen(reply)).toStrictEqual(text(403, '2', 'hookbox: refused: the Host header does not name loopback\n'));
    expect(reply.headers.connection).toBe('close');
    expect(seen(await send({ socket: server.socketPath }, { headers: { host: 'evil.example' }, body: preBash(project, 's1', 'ls') }))).toStrictEqual(text(200, '0', ''));
    expect(seen(await send({ port: server.port! }, { headers: auth, body: preBash(project, 's1', 'ls') }))).toStrictEqual(text(200, '0', ''));
    expect(logLines()).toStrictEqual([
      'hookbox serve: - - - foreign-host 403 <µs>',
      'hookbox serve: claude-code s1 PreToolUse allow 200 <µs>',
      'hookbox serve: claude-code s1 PreToolUse allow 200 <µs>',
    ]);
  });

  it("without the token: 401, the agent's closed answer for the route's event where it has one, the connection closed", async () => {
    const server = await serve({ port: 0 });
    const reason = 'unauthenticated request (a bearer token is required)';
    const target = { port: server.port! };
    const claude = await send(target, { headers: { authorization: 'Bearer wrong' }, body: preBash(project, 's1', 'ls') });
    expect(seen(claude)).toStrictEqual(sent(401, claudeCodeBridge.failClosed(undefined, reason)));
    expect(claude.headers.connection).toBe('close');
    const copilot = await send(target, { path: '/hooks/copilot/preToolUse', body: '{}' });
    expect(seen(copilot)).toStrictEqual(sent(401, copilotBridge.failClosed('preToolUse', reason)));
    const stranger = await send(target, { path: '/nowhere', body: '{}' });
    expect(seen(stranger)).toStrictEqual(text(401, '2', `hookbox: ${reason}\n`));
    const health = await send(target, { method: 'GET', path: '/health' });
    expect(health.status).toBe(401);
    expect(logLines()).toStrictEqual(Array(4).fill('hookbox serve: - - - unauthenticated 401 <µs>'));
  });

  it('the socket has no door: idle connections on it are not capped', async () => {
    const server = await serve({ port: 0 });
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 17; i += 1) {
        const socket = net.connect(server.socketPath);
        open.push(socket);
        await new Promise((resolve) => socket.once('connect', resolve));
      }
      expect((await send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') })).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(open.map((socket) => socket.destroyed)).toStrictEqual(Array(17).fill(false));
    } finally {
      for (const socket of open) socket.destroy();
    }
  });

  it('strangers that never send a request are capped: the 17th connection is closed at once', async () => {
    const server = await serve({ port: 0 });
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 16; i += 1) {
        const socket = net.connect(server.port!, '127.0.0.1');
        open.push(socket);
        await new Promise((resolve) => socket.once('connect', resolve));
      }
      const extra = net.connect(server.port!, '127.0.0.1');
      open.push(extra);
      // Closed by the server at once; a deadline so that a server that never closes it fails here instead of at the test's timeout.
      const shut = await new Promise<boolean>((resolve) => {
        const deadline = setTimeout(() => resolve(false), 10_000);
        extra.once('close', () => {
          clearTimeout(deadline);
          resolve(true);
        });
      });
      expect(shut).toBe(true);
      expect(open.slice(0, 16).map((socket) => socket.destroyed)).toStrictEqual(Array(16).fill(false));
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});

describe('/health', () => {
  it('says which config is served and how many sessions; with a good nonce and a token, the proof', async () => {
    const config = { path: path.join(dir, 'hookbox.config.json'), identity: 'sha256:abc' };
    const server = await serve({ port: 0, hooks: hooks({ config }) });
    await send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') });
    const nonce = 'n'.repeat(16);
    const get = (query: string) => send({ port: server.port! }, { method: 'GET', path: `/health${query}`, headers: auth });
    const state = { ok: true, sessions: 1, config: config.path, identity: 'sha256:abc' };
    const replies = await Promise.all([get(''), get(`?nonce=${nonce}`), get(`?nonce=${'n'.repeat(15)}`), get(`?nonce=${'n'.repeat(128)}`), get(`?nonce=${'n'.repeat(129)}`), get(`?nonce=${nonce}!`), get(`?nonce=!${nonce}`)]);
    expect(replies.map(seen)).toStrictEqual([
      json(200, `${JSON.stringify(state)}\n`),
      json(200, `${JSON.stringify({ ...state, proof: healthProof(TOKEN, nonce, 'sha256:abc') })}\n`),
      json(200, `${JSON.stringify(state)}\n`),
      json(200, `${JSON.stringify({ ...state, proof: healthProof(TOKEN, 'n'.repeat(128), 'sha256:abc') })}\n`),
      json(200, `${JSON.stringify(state)}\n`),
      json(200, `${JSON.stringify(state)}\n`),
      json(200, `${JSON.stringify(state)}\n`),
    ]);
    expect(logLines().slice(1)).toStrictEqual(Array(7).fill('hookbox serve: - - - health 200 <µs>'));
  });

  it('with no config known, and with no token, there is nothing to prove', async () => {
    const noConfig = await serve({ port: 0 });
    const nonce = 'n'.repeat(20);
    expect(JSON.parse((await send({ port: noConfig.port! }, { method: 'GET', path: `/health?nonce=${nonce}`, headers: auth })).body)).toStrictEqual({
      ok: true,
      sessions: 0,
      proof: healthProof(TOKEN, nonce, ''),
    });
    const socket = path.join(dir, 'other', 's.sock');
    const noToken = new DecisionServer({ hooks: hooks(), socket, log: () => {} });
    servers.push(noToken);
    await noToken.listen();
    expect(JSON.parse((await send({ socket }, { method: 'GET', path: `/health?nonce=${nonce}` })).body)).toStrictEqual({ ok: true, sessions: 0 });
  });
});

describe('the config a client names', () => {
  it("another project's config: over the socket 421 with the refusal named; over TCP 200 with the closed answer", async () => {
    const served = path.join(dir, 'served.json');
    writeFileSync(served, '{}');
    const server = await serve({ port: 0, hooks: hooks({ config: { path: served, identity: 'sha256:x' } }) });
    const other = path.join(dir, 'other.json');
    const reason = `this hookbox server serves ${served}, not ${other}; start one for this project`;
    const headers = { 'x-hookbox-config': encodeURIComponent(other) };
    const body = preBash(project, 's1', 'ls');
    const bySocket = await send({ socket: server.socketPath }, { headers, body });
    expect({ ...seen(bySocket), refused: bySocket.headers['x-hookbox-refused'] }).toStrictEqual({ ...sent(421, claudeCodeBridge.failClosed('PreToolUse', reason)), refused: 'other-config' });
    const byTcp = await send({ port: server.port! }, { headers: { ...headers, ...auth }, body });
    expect({ ...seen(byTcp), refused: byTcp.headers['x-hookbox-refused'] }).toStrictEqual({ ...sent(200, claudeCodeBridge.failClosed('PreToolUse', reason)), refused: undefined });
    const unreadable = await send({ socket: server.socketPath }, { headers: { 'x-hookbox-config': '%E0%A4%A' }, body: '{"hook_event_name":"PreToolUse",' });
    expect(seen(unreadable)).toStrictEqual(sent(421, claudeCodeBridge.failClosed('PreToolUse', `this hookbox server serves ${served}, not %E0%A4%A; start one for this project`)));
    expect(logLines()).toStrictEqual([
      'hookbox serve: claude-code - PreToolUse other-config 421 <µs>',
      'hookbox serve: claude-code - PreToolUse other-config 200 <µs>',
      'hookbox serve: claude-code - PreToolUse other-config 421 <µs>',
    ]);
  });

  it('the served config, by another spelling or a link, is decided; with no config known, any is', async () => {
    const served = path.join(dir, 'served.json');
    writeFileSync(served, '{}');
    symlinkSync(served, path.join(dir, 'link.json'));
    const server = await serve({ hooks: hooks({ config: { path: served, identity: 'sha256:x' } }) });
    const body = preBash(project, 's1', 'ls');
    for (const named of [served, path.join(dir, '.', 'x', '..', 'served.json'), path.join(dir, 'link.json')]) {
      expect((await send({ socket: server.socketPath }, { headers: { 'x-hookbox-config': encodeURIComponent(named) }, body })).status).toBe(200);
    }
    const open = await serve({ socket: path.join(dir, 'open', 's.sock') });
    expect((await send({ socket: open.socketPath }, { headers: { 'x-hookbox-config': encodeURIComponent('/elsewhere.json') }, body })).status).toBe(200);
  });
});

describe('the framed answer (the sh client)', () => {
  it('carries the exit code, the refusal and the text length in a first line, as plain text', async () => {
    handlers['agent/prompt-submit'] = () => ({ action: 'block', reason: 'no' });
    const served = path.join(dir, 'served.json');
    const server = await serve({ hooks: hooks({ config: { path: served, identity: 'sha256:x' } }) });
    const frame = { 'x-hookbox-frame': 'line' };
    const blocked = await send({ socket: server.socketPath }, { headers: frame, body: promptSubmit(project, 's1', 'hi') });
    const answer = `${JSON.stringify({ decision: 'block', reason: 'no' })}\n`;
    expect(seen(blocked)).toStrictEqual(text(200, '0', `hookbox 0 - ${answer.length}\n${answer}`));
    const refused = await send({ socket: server.socketPath }, { headers: { ...frame, 'x-hookbox-config': '/other.json' }, body: 'nope' });
    const closed = claudeCodeBridge.failClosed(undefined, `this hookbox server serves ${served}, not /other.json; start one for this project`);
    expect(seen(refused)).toStrictEqual(text(421, '2', `hookbox 2 other-config ${Buffer.byteLength(closed.stderr)}\n${closed.stderr}`));
    const unframed = await send({ socket: server.socketPath }, { headers: { 'x-hookbox-frame': 'json' }, body: promptSubmit(project, 's1', 'hi') });
    expect(seen(unframed)).toStrictEqual(json(200, answer));
  });
});

describe('the session state a server keeps', () => {
  it('decides with the continuation cap given, by default 3, and closes idle sessions every 30 s', async () => {
    handlers['agent/turn-continuation'] = () => ({ action: 'continue', reason: 'again' });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const served = hooks();
    const server = await serve({ hooks: served, idleMs: 0 });
    const target = { socket: server.socketPath };
    const stop = (active: boolean) => send(target, { body: claudeEvent(project, 's1', { hook_event_name: 'Stop', stop_hook_active: active }) });
    const bodies = [(await stop(false)).body];
    for (let i = 0; i < 3; i += 1) bodies.push((await stop(true)).body);
    const again = `${JSON.stringify({ decision: 'block', reason: 'again' })}\n`;
    expect(bodies).toStrictEqual([again, again, again, '']);
    expect(server.sessions).toBe(1);
    vi.advanceTimersByTime(29_999);
    expect(server.sessions).toBe(1);
    vi.advanceTimersByTime(1);
    expect({ sessions: server.sessions, forgotten: served.forgotten }).toStrictEqual({ sessions: 0, forgotten: ['s1'] });
  });

  it('a cap of its own; a fixed log folder; at most maxSessions; replaced originals kept when the hooks say so', async () => {
    handlers['agent/turn-continuation'] = () => ({ action: 'continue', reason: 'again' });
    handlers['tools/post-execute'] = () => ({ action: 'accept', content: 'redacted' });
    const logDir = path.join(dir, 'logs');
    const served = hooks({ keepReplacedOriginals: true });
    const server = await serve({ hooks: served, maxContinuations: 0, logDir, maxSessions: 1 });
    const target = { socket: server.socketPath };
    expect((await send(target, { body: claudeEvent(project, 's1', { hook_event_name: 'Stop', stop_hook_active: false }) })).body).toBe('');
    const post = claudeEvent(project, 's2', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'cat .env' },
      tool_response: { stdout: 'KEY=1', stderr: '', interrupted: false, isImage: false },
      tool_use_id: 't1',
    });
    await send(target, { body: post });
    expect({ sessions: server.sessions, forgotten: served.forgotten }).toStrictEqual({ sessions: 1, forgotten: ['s1'] });
    const result = readSessionLog(path.join(logDir, 'claude-code-s2.jsonl')).events.find((event) => event.type === 'tool/result');
    expect(result).toMatchObject({ hookEffect: 'replaced', original: { content: 'KEY=1' } });
    expect(existsSync(path.join(project, '.hookbox'))).toBe(false);
  });

  it('by default a session is closed after 30 minutes idle', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const server = await serve();
    await send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') });
    vi.advanceTimersByTime(30_000);
    expect(server.sessions).toBe(1);
    vi.advanceTimersByTime(30 * 60_000);
    expect(server.sessions).toBe(0);
  });

  it('by default sessions log under their cwd', async () => {
    const server = await serve();
    await send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') });
    expect(existsSync(path.join(project, '.hookbox', 'sessions', 'claude-code-s1.jsonl'))).toBe(true);
  });
});

describe('a host error', () => {
  it('is a 500 with the error, in the log line', async () => {
    const broken = Object.defineProperty(hooks(), 'keepReplacedOriginals', {
      get() {
        throw new Error('hooks gone');
      },
    });
    const server = await serve({ hooks: broken });
    expect(seen(await send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') }))).toStrictEqual(text(500, '2', 'hookbox: server error: hooks gone\n'));
    expect(logLines()).toStrictEqual(['hookbox serve: claude-code - - error 500 <µs>']);
  });
});

describe('the request log', () => {
  it('goes to stderr when no log is given, one line per request', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const socket = path.join(dir, 'quiet', 's.sock');
    const server = new DecisionServer({ hooks: hooks(), socket });
    servers.push(server);
    await server.listen();
    await send({ socket }, { body: preBash(project, 's1', 'ls') });
    vi.mocked(process.stderr.write).mockRestore();
    expect(written.map((line) => line.replace(/ \d+µs\n$/, ' <µs>\n'))).toStrictEqual(['hookbox serve: claude-code s1 PreToolUse allow 200 <µs>\n']);
  });
});

describe('the socket', () => {
  it('is 0600 in a 0700 folder; a stale socket is replaced; anything else there is refused', async () => {
    const socket = path.join(dir, 'run', 'serve.sock');
    mkdirSync(path.dirname(socket), { recursive: true });
    // A stale socket: a second name for the socket of a listener that is gone.
    const old = net.createServer();
    const first = path.join(dir, 'run', 'old.sock');
    await new Promise<void>((resolve) => old.listen(first, resolve));
    linkSync(first, socket);
    await new Promise<void>((resolve) => old.close(() => resolve()));
    chmodSync(path.dirname(socket), 0o755);
    const server = await serve({ socket });
    expect([statSync(socket).mode & 0o777, statSync(path.dirname(socket)).mode & 0o777]).toStrictEqual([0o600, 0o700]);
    expect((await send({ socket }, { body: preBash(project, 's1', 'ls') })).status).toBe(200);
    const file = path.join(dir, 'file.sock');
    writeFileSync(file, 'not a socket');
    const refused = new DecisionServer({ hooks: hooks(), socket: file, log: () => {} });
    await expect(refused.listen()).rejects.toThrow(new ConfigError(`${file}: exists and is not a socket; refusing to replace it`));
    expect(existsSync(file)).toBe(true);
    expect(server.port).toBeUndefined();
  });

  it('a path past 107 bytes is bound relative to the cwd when that is at most 107 bytes, else as it is', () => {
    const cwd = process.cwd();
    const exact = `/${'a'.repeat(106)}`;
    const under = (name: string) => path.join(cwd, name);
    expect([
      connectablePath(exact),
      connectablePath(`${exact}a`),
      connectablePath(under('b'.repeat(100))),
      connectablePath(under('b'.repeat(107))),
      connectablePath(under('b'.repeat(108))),
      connectablePath(under('é'.repeat(50))),
      connectablePath(under('é'.repeat(54))),
    ]).toStrictEqual([exact, `${exact}a`, 'b'.repeat(100), 'b'.repeat(107), under('b'.repeat(108)), 'é'.repeat(50), under('é'.repeat(54))]);
    const at107 = under('c'.repeat(107 - Buffer.byteLength(cwd) - 1));
    expect([Buffer.byteLength(at107), connectablePath(at107), connectablePath('/tmp/s.sock')]).toStrictEqual([107, at107, '/tmp/s.sock']);
  });
});

describe('shutdown', () => {
  it('finishes a call in flight, then closes the sessions and the hooks and removes the socket, once', async () => {
    let release: (() => void) | undefined;
    const entered = new Promise<void>((resolve) => {
      handlers['tools/pre-execute'] = () =>
        new Promise((decided) => {
          release = () => decided({ action: 'deny', reason: 'late' });
          resolve();
        });
    });
    const served = hooks();
    const server = await serve({ hooks: served, port: 0 });
    const reply = send({ socket: server.socketPath }, { body: preBash(project, 's1', 'ls') });
    await entered;
    let closed = false;
    try {
      const closing = server.close().then(() => (closed = true));
      expect(server.close()).toBe(server.close());
      await new Promise((resolve) => setImmediate(resolve));
      expect({ closed, closes: served.closes, sessions: server.sessions }).toStrictEqual({ closed: false, closes: 0, sessions: 1 });
      release!();
      expect((await reply).status).toBe(200);
      await closing;
    } finally {
      release?.();
    }
    expect({ closed, closes: served.closes, sessions: server.sessions, socket: existsSync(server.socketPath), forgotten: served.forgotten }).toStrictEqual({
      closed: true,
      closes: 1,
      sessions: 0,
      socket: false,
      forgotten: ['s1'],
    });
    await expect(send({ port: server.port! }, { headers: auth, body: preBash(project, 's1', 'ls') })).rejects.toThrow(/ECONNREFUSED/);
  });
});
