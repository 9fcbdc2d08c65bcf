/**
 * The listener proof and the folder rules (#48 item 3), unit by unit: the
 * clients' side (host/listener-proof.cjs) and the server's
 * (host/serve/listener-proof.ts, the real `DecisionServer`) agree on every
 * field; the server writes its key 0600 beside the socket, proves every
 * socket answer to a nonce (framed ones too) and never a TCP one; each
 * folder rule refuses what it names. And `hookbox serve` never takes a
 * Copilot event's name from a body it could not parse (#57 item 3).
 * The clients end to end: tests/security/client-failure-cases.spec.ts.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SeamBus } from '../../host/events/index.ts';
import { DecisionServer } from '../../host/serve/index.ts';
import { NONCE_HEADER, PROOF_HEADER, answerProof, keyFileOf } from '../../host/serve/listener-proof.ts';
import { skipUnless } from '../helpers/skips.ts';

const require = createRequire(import.meta.url);
const client = require('../../host/listener-proof.cjs') as {
  NONCE_HEADER: string;
  PROOF_HEADER: string;
  answerProof(key: string, nonce: string, exit: string, refused: string, text: Buffer): string;
  proofHolds(key: string, nonce: string, exit: string, refused: string, text: Buffer, proof: unknown): boolean;
  unsafeListener(socket: string): string | undefined;
  readKey(socket: string): { key?: string; error?: string };
  checkedFolders(socket: string): string[];
};

let dir: string;
let servers: DecisionServer[];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-proof-')));
  servers = [];
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(port?: number): Promise<{ server: DecisionServer; socket: string }> {
  const socket = path.join(dir, 'p', '.hookbox', 'run', 'serve.sock');
  const hooks = { bus: new SeamBus(), forgetSession: () => {}, close: () => Promise.resolve() };
  const server = new DecisionServer({ hooks, socket, log: () => {}, ...(port !== undefined && { port, token: 't'.repeat(40) }) });
  servers.push(server);
  await server.listen();
  return { server, socket };
}

function post(target: { socket?: string; port?: number }, route: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...(target.socket !== undefined ? { socketPath: target.socket } : { host: '127.0.0.1', port: target.port }), agent: false, path: route, method: 'POST', headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const NONCE = '0123456789abcdef0123456789abcdef';

describe('the listener proof: server and clients agree', () => {
  it('the wire names and the proof function are the same on both sides', () => {
    expect([client.NONCE_HEADER, client.PROOF_HEADER]).toStrictEqual([NONCE_HEADER, PROOF_HEADER]);
    const key = 'a'.repeat(64);
    for (const [exit, refused, text] of [[0, '-', ''], [2, 'other-config', 'hookbox: no\n'], [0, '-', '{"é":"✓"}\n']] as const) {
      expect(client.answerProof(key, NONCE, String(exit), refused, Buffer.from(text))).toBe(answerProof(key, NONCE, exit, refused, text));
    }
    // Every field counts.
    const base = client.answerProof(key, NONCE, '0', '-', Buffer.from('x'));
    expect(new Set([base, client.answerProof('b'.repeat(64), NONCE, '0', '-', Buffer.from('x')), client.answerProof(key, NONCE.replace('0', '1'), '0', '-', Buffer.from('x')), client.answerProof(key, NONCE, '2', '-', Buffer.from('x')), client.answerProof(key, NONCE, '0', 'x', Buffer.from('x')), client.answerProof(key, NONCE, '0', '-', Buffer.from('y'))]).size).toBe(6);
    expect(client.proofHolds(key, NONCE, '0', '-', Buffer.from('x'), base)).toBe(true);
    for (const bad of [undefined, '', base.toUpperCase(), `${base}0`, base.slice(1), ['x']]) expect(client.proofHolds(key, NONCE, '0', '-', Buffer.from('x'), bad)).toBe(false);
  });

  it('hookbox serve writes a fresh 0600 key beside its socket, proves each socket answer to a nonce, and removes the key on close', async () => {
    const { server, socket } = await serve();
    const { key } = client.readKey(socket);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(keyFileOf(socket)).mode & 0o777).toBe(0o600);
    const body = JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });
    const plain = await post({ socket }, '/hooks/claude-code', body, { [NONCE_HEADER]: NONCE });
    expect(client.proofHolds(key!, NONCE, String(plain.headers['x-hookbox-exit']), '-', plain.body, plain.headers[PROOF_HEADER])).toBe(true);
    // The sh client's frame carries it as a fifth field on the first line, over the same text.
    const framed = await post({ socket }, '/hooks/claude-code', body, { [NONCE_HEADER]: NONCE, 'x-hookbox-frame': 'line' });
    const [line, ...rest] = framed.body.toString('utf8').split('\n');
    const [, exit, refused, , proof] = line!.split(' ');
    expect(client.proofHolds(key!, NONCE, exit!, refused!, Buffer.from(rest.join('\n')), proof)).toBe(true);
    // No nonce, or one not of the form: no proof.
    for (const nonce of [undefined, 'short', NONCE.toUpperCase()]) {
      const reply = await post({ socket }, '/hooks/claude-code', body, nonce === undefined ? {} : { [NONCE_HEADER]: nonce });
      expect(reply.headers[PROOF_HEADER]).toBeUndefined();
    }
    await server.close();
    expect(existsSync(keyFileOf(socket))).toBe(false);
  });

  it('a restarted server proves itself with a new key; TCP answers never carry a proof (the token guards them)', async () => {
    const first = await serve();
    const old = client.readKey(first.socket).key;
    await first.server.close();
    const second = await serve(0);
    expect(client.readKey(second.socket).key).not.toBe(old);
    const reply = await post({ port: second.server.port }, '/hooks/claude-code', '{}', { [NONCE_HEADER]: NONCE, authorization: `Bearer ${'t'.repeat(40)}`, host: '127.0.0.1' });
    expect(reply.headers['x-hookbox-exit']).toBeDefined();
    expect(reply.headers[PROOF_HEADER]).toBeUndefined();
  });
});

describe("the clients' folder rules, each refusing what it names", () => {
  function layout(): { run: string; socket: string } {
    const run = path.join(dir, 'p', '.hookbox', 'run');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    return { run, socket: path.join(run, 'serve.sock') };
  }

  it('the folders checked: the socket’s, then up to the nearest .hookbox; only its own for a socket elsewhere', () => {
    expect(client.checkedFolders('/a/.hookbox/run/serve.sock')).toStrictEqual(['/a/.hookbox/run', '/a/.hookbox']);
    expect(client.checkedFolders('/h/u/.hookbox/serve.sock')).toStrictEqual(['/h/u/.hookbox']);
    expect(client.checkedFolders('/srv/sockets/serve.sock')).toStrictEqual(['/srv/sockets']);
  });

  it('no folder or no socket: absent (nothing listens; the in-process decision is the client’s)', () => {
    expect(client.unsafeListener(path.join(dir, 'none', '.hookbox', 'run', 'serve.sock'))).toBe('absent');
    expect(client.unsafeListener(layout().socket)).toBe('absent');
  });

  it('a socket that is a symlink, or a plain file, is refused', () => {
    const { run, socket } = layout();
    writeFileSync(path.join(run, 'file'), '');
    symlinkSync(path.join(run, 'file'), socket);
    expect(client.unsafeListener(socket)).toBe(`${socket} is a symbolic link, not hookbox serve's socket`);
    rmSync(socket);
    writeFileSync(socket, '');
    expect(client.unsafeListener(socket)).toBe(`${socket} is not a socket`);
  });

  it('the run folder open to others, a symlinked run folder, a .hookbox that is a file: refused', () => {
    const { run, socket } = layout();
    chmodSync(run, 0o705);
    expect(client.unsafeListener(socket)).toMatch(/run is open to group or others \(mode 705\)/);
    rmSync(run, { recursive: true });
    const elsewhere = mkdtempSync(path.join(dir, 'elsewhere-'));
    symlinkSync(elsewhere, run);
    expect(client.unsafeListener(socket)).toBe(`${run} is a symbolic link; hookbox's socket folders must be real folders`);
    rmSync(path.join(dir, 'p', '.hookbox'), { recursive: true });
    writeFileSync(path.join(dir, 'p', '.hookbox'), '');
    expect(client.unsafeListener(socket)).toMatch(/cannot be checked \(ENOTDIR\)/);
  });

  it('a key that is missing, a symlink, open to others, or not one key: refused, naming the file', () => {
    const { socket } = layout();
    const file = keyFileOf(socket);
    expect(client.readKey(socket).error).toMatch(/serve\.sock\.key is missing \(ENOENT\)/);
    writeFileSync(path.join(dir, 'k'), `${'a'.repeat(64)}\n`, { mode: 0o600 });
    symlinkSync(path.join(dir, 'k'), file);
    expect(client.readKey(socket).error).toBe(`${file} is not a regular file`);
    rmSync(file);
    writeFileSync(file, `${'a'.repeat(64)}\n`, { mode: 0o640 });
    chmodSync(file, 0o640);
    expect(client.readKey(socket).error).toBe(`${file} is readable by group or others (mode 640)`);
    chmodSync(file, 0o600);
    writeFileSync(file, 'A'.repeat(64));
    expect(client.readKey(socket).error).toBe(`${file} does not hold one 64-hex-digit key`);
    writeFileSync(file, `${'a'.repeat(64)}\n`);
    expect(client.readKey(socket)).toStrictEqual({ key: 'a'.repeat(64) });
  });

  it("a folder, socket or key owned by another user is refused, naming the owner", (context) => {
    if (skipUnless('listener-proof: another owner', process.getuid?.() === 0 ? undefined : 'handing a file to another uid needs root')) return context.skip();
    const { run, socket } = layout();
    const file = keyFileOf(socket);
    writeFileSync(file, `${'a'.repeat(64)}\n`, { mode: 0o600 });
    chownSync(file, 4242, 4242);
    expect(client.readKey(socket).error).toBe(`${file} is owned by uid 4242, not by you (uid 0)`);
    chownSync(path.join(dir, 'p', '.hookbox'), 4242, 4242);
    expect(client.unsafeListener(socket)).toBe(`${path.join(dir, 'p', '.hookbox')} is owned by uid 4242, not by you (uid 0)`);
    chownSync(path.join(dir, 'p', '.hookbox'), 0, 0);
    chownSync(run, 4242, 4242);
    expect(client.unsafeListener(socket)).toBe(`${run} is owned by uid 4242, not by you (uid 0)`);
  });
});

describe("hookbox serve: a Copilot event's name is the route's, never the body's (#57 item 3)", () => {
  // agentStop is Copilot's let-through event: read from the body, a tool call would be waved on.
  const claim = '"hook_event_name":"agentStop"';
  it('a body that is not JSON, with no event in the route: exit 2, not the let-through of the name in it', async () => {
    const { socket } = await serve();
    const reply = await post({ socket }, '/hooks/copilot', `{${claim}, "toolName": "bash", not json`);
    expect(reply.status).toBe(400);
    expect(reply.headers['x-hookbox-exit']).toBe('2');
    // Named in the route, the route's event decides the closed form.
    const named = await post({ socket }, '/hooks/copilot/preToolUse', `{${claim}, not json`);
    expect(JSON.parse(named.body.toString('utf8'))).toMatchObject({ permissionDecision: 'deny' });
  });

  it('a body over the size limit, with no event in the route: exit 2 as well', async () => {
    const socket = path.join(dir, 'small', 'serve.sock');
    const hooks = { bus: new SeamBus(), forgetSession: () => {}, close: () => Promise.resolve() };
    // A limit past the first chunks the socket delivers, so the server holds the body's head (where the claim is).
    const server = new DecisionServer({ hooks, socket, log: () => {}, maxBodyBytes: 200_000 });
    servers.push(server);
    await server.listen();
    const reply = await post({ socket }, '/hooks/copilot', `{${claim},"toolArgs":"${'x'.repeat(1024 * 1024)}"}`);
    expect(reply.status).toBe(413);
    expect(reply.headers['x-hookbox-exit']).toBe('2');
  });
});
