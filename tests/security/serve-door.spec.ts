/**
 * The door of `hookbox serve`, with real
 * listeners, real wasm hooks and the real command client:
 * the token checked before any body byte, strangers capped in number and
 * time, a foreign `Host` refused, `/health` behind the token with a proof
 * of the token, a server that decides only its own project's events.
 * `doctor` tells hookbox from a squatter. The client's own deadline is
 * `hook-client-deadline.spec.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { doctorAgent } from '../../host/cli/doctor.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { claudeCodeBridge } from '../../host/agents/index.ts';
import { proofHolds } from '../../host/serve/config-identity.ts';
import { DecisionServer, loadServedHooks } from '../../host/serve/index.ts';
import { MAX_UNAUTHENTICATED_CONNECTIONS } from '../../host/serve/auth-gate.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { HOOK_CLIENTS } from '../helpers/command-hook.ts';
import { preBash, writeHookConfig } from '../helpers/claude-events.ts';

const TOKEN = 'door-token-0123456789abcdefghijklmnopqrstuvwxyz';

/** Opens a raw TCP connection and sends `head`; resolves what the server sent back before it closed (or `undefined` after `waitMs`). */
function rawExchange(port: number, head: string, waitMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(text === '' ? undefined : text);
    }, waitMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', () => {});
    socket.write(head);
  });
}

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hookbox serve: the TCP door', () => {
  let dir: string;
  let server: DecisionServer;

  // Each server opens in the first test's beforeEach, never a beforeAll (docs/testing.md).
  let opening: Promise<void> | undefined;
  beforeEach(() => (opening ??= open()), 60_000);
  async function open(): Promise<void> {
    dir = mkdtempSync(join(tmpdir(), 'hookbox-door-'));
    const config = writeHookConfig(dir, [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }]);
    server = new DecisionServer({ hooks: await loadServedHooks(config), port: 0, token: TOKEN, log: () => {} });
    await server.listen();
  }

  afterAll(async () => {
    await server?.close();
  });

  it('an unauthenticated request is refused from its headers: the 401 comes while its 4 MiB body is still unsent', async () => {
    const head = `POST /hooks/claude-code HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN.slice(0, 20)}\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n`;
    // No body byte is ever sent: a server that reads the body before the token never answers.
    const answer = await rawExchange(server.port!, head, 10_000);
    expect(answer, 'no answer while the body was outstanding: the server waited for the body before checking the token').toBeDefined();
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/connection: close/i);
  });

  it('a prefix, an extension or a case change of the token is refused; the whole token is accepted', async () => {
    for (const authorization of [`Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}0`, `Bearer ${TOKEN.toUpperCase()}`, `Bearer  ${TOKEN}`, TOKEN]) {
      const reply = await get(server.port!, '/health', { authorization });
      expect(reply.status, authorization).toBe(401);
      expect(reply.body).not.toContain('sessions');
    }
    expect((await get(server.port!, '/health', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('/health needs the token, and with a nonce proves the server holds it', async () => {
    expect((await get(server.port!, '/health', {})).status).toBe(401);
    const nonce = randomBytes(16).toString('hex');
    const reply = await get(server.port!, `/health?nonce=${nonce}`, { authorization: `Bearer ${TOKEN}` });
    const health = JSON.parse(reply.body) as { identity: string; proof: string; config: string };
    expect(health.config).toMatch(/hookbox\.config\.json$/);
    expect(proofHolds(TOKEN, nonce, health.identity, health.proof)).toBe(true);
    expect(proofHolds('another-token-0123456789abcdefghijkl', nonce, health.identity, health.proof)).toBe(false);
  });

  it('a request whose Host is not loopback is refused, token or not (a rebinding page names its own host)', async () => {
    for (const host of ['evil.example', '127.0.0.1.evil.example', 'localhost.evil:47100']) {
      const answer = await rawExchange(server.port!, `GET /health HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`, 10_000);
      expect(answer, host).toMatch(/^HTTP\/1\.1 403 /);
    }
    const ok = await rawExchange(server.port!, `GET /health HTTP/1.1\r\nHost: localhost:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`, 10_000);
    expect(ok).toMatch(/^HTTP\/1\.1 200 /);
  });

  it(`unauthenticated connections are capped at ${MAX_UNAUTHENTICATED_CONNECTIONS} and closed when they stay silent`, async () => {
    const sockets = await Promise.all(
      Array.from({ length: MAX_UNAUTHENTICATED_CONNECTIONS + 8 }, () => new Promise<net.Socket>((resolve) => {
        const socket = net.connect(server.port!, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => {});
      })),
    );
    const closed = sockets.map((socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve()))));
    // Every one of them ends by itself: the ones past the cap at once, the rest at the end of their window.
    await Promise.race([Promise.all(closed), new Promise((_, reject) => setTimeout(() => reject(new Error('idle unauthenticated connections were left open')), 30_000))]);
    for (const socket of sockets) socket.destroy();
  }, 60_000);
});

describe('hookbox serve: one server serves one project', () => {
  let root: string;
  let server: DecisionServer;
  let socket: string;
  let configA: string;
  let configB: string;
  const lines: string[] = [];

  let opening: Promise<void> | undefined;
  beforeEach(() => (opening ??= open()), 60_000);
  async function open(): Promise<void> {
    root = mkdtempSync(join(tmpdir(), 'hookbox-two-'));
    // A allows anything but what guard-bash denies; B denies every shell command.
    configA = writeHookConfig(join(root, 'a'), [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }]);
    configB = writeHookConfig(join(root, 'b'), [{ name: 'deny-all-bash', permissions: { deny: ['Bash'], root: '.' } }]);
    socket = join(root, 'a', '.hookbox', 'run', 'serve.sock');
    server = new DecisionServer({ hooks: await loadServedHooks(configA), socket, log: (line) => lines.push(line) });
    await server.listen();
  }

  afterAll(async () => {
    await server?.close();
  });

  it.each(HOOK_CLIENTS)("$name client: B's client pointed at A's server is refused there and decides by B's config in-process", async (client) => {
    const run = await client.run('claude-code', ['--socket', socket, '--config', configB], preBash(join(root, 'b'), `s-b-${client.name}`, 'ls'));
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout).hookSpecificOutput;
    expect(answer).toMatchObject({ permissionDecision: 'deny' });
    // Denied by B's own rule, not by a failure.
    expect(answer.permissionDecisionReason).toMatch(/denied by the imported Claude Code rule/);
    expect(answer.permissionDecisionReason).not.toMatch(/hookbox: /);
    expect(lines.some((line) => / other-config 421 /.test(line)), lines.join('\n')).toBe(true);
    // A's own client is decided by A's server: `ls` is fine there.
    const mine = await client.run('claude-code', ['--socket', socket, '--config', configA], preBash(join(root, 'a'), `s-a-${client.name}`, 'ls'));
    expect(mine).toMatchObject({ code: 0, stdout: '' });
    expect(lines.some((line) => line.includes(`claude-code s-a-${client.name} PreToolUse allow 200 `))).toBe(true);
  }, 120_000);

  it('the server says which config it serves; doctor compares it with the project on disk', async () => {
    const { checkServerIdentity } = await import('../../host/cli/doctor-server.ts');
    expect(await checkServerIdentity({ socket }, configA)).toMatchObject({ ok: true });
    expect(await checkServerIdentity({ socket }, configB)).toMatchObject({ ok: false, what: expect.stringContaining("not this project's") });
    writeFileSync(configA, `${JSON.stringify({ hooks: [] })}\n`);
    expect(await checkServerIdentity({ socket }, configA)).toMatchObject({ ok: false, what: expect.stringContaining('changed since') });
  });
});

describe('hookbox doctor: hookbox or a squatter on the http port', () => {
  it('a process on the port that does not hold the token is reported; hookbox proves itself', async () => {
    const project = mkdtempSync(join(tmpdir(), 'hookbox-squat-'));
    const config = writeHookConfig(project, [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }]);
    const tokenFile = join(project, 'private', 'token');
    // The squatter answers everything 200 with what a hookbox allow looks like.
    const squatter = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'x-hookbox-exit': '0' });
      res.end(req.url?.startsWith('/health') ? '{"ok":true,"sessions":0}' : '');
    });
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', () => resolve()));
    const port = (squatter.address() as { port: number }).port;
    try {
      setupCommand('claude-code', { project, config, transport: 'http', port: String(port), tokenFile }, () => {});
      const report = await doctorAgent(claudeCodeBridge, { kind: 'project', dir: project });
      expect(report.ok).toBe(false);
      expect(report.findings.some((finding) => !finding.ok && /NOT hookbox/.test(finding.what)), JSON.stringify(report.findings)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    const { readOrCreateToken } = await import('../../host/serve/index.ts');
    const real = new DecisionServer({ hooks: await loadServedHooks(config), port, token: readOrCreateToken(tokenFile).token, log: () => {} });
    await real.listen();
    try {
      const report = await doctorAgent(claudeCodeBridge, { kind: 'project', dir: project });
      expect(report.findings.find((finding) => /proved it holds the token/.test(finding.what)), JSON.stringify(report.findings)).toMatchObject({ ok: true });
    } finally {
      await real.close();
    }
  }, 60_000);
});
