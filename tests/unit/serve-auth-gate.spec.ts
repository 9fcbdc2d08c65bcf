/**
 * The TCP door's parts, one by one: `AuthGate` caps connections that have
 * not authenticated (in number, and in time: its clock is held by the test
 * through fake timers, so no test waits), checks the bearer token whole, and
 * lets an authenticated connection go; `loopbackHost` tells this machine's
 * names from a rebinding page's. Real sockets and request objects, never
 * connected: the gate reads nothing else of them.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthGate, MAX_UNAUTHENTICATED_CONNECTIONS, UNAUTHENTICATED_WINDOW_MS, loopbackHost } from '../../host/serve/auth-gate.ts';

const TOKEN = 'gate-token-0123456789abcdefghijklmnopqrstuvwxyz';

let sockets: net.Socket[];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  sockets = [];
});
afterEach(() => {
  vi.useRealTimers();
  for (const socket of sockets) socket.destroy();
});

function socket(): net.Socket {
  const made = new net.Socket();
  sockets.push(made);
  return made;
}
/** A request as the server gets it, on `on`, with this `Authorization` header (or none). */
function request(on: net.Socket, authorization?: string): http.IncomingMessage {
  const req = new http.IncomingMessage(on);
  req.headers = authorization === undefined ? {} : { authorization };
  return req;
}
/** Lets the sockets' `close` events (emitted on the next tick) run. */
const closesSettle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AuthGate: connections that have not authenticated', () => {
  it('are refused past the cap, at once', async () => {
    const gate = new AuthGate(TOKEN, { maxPending: 2, windowMs: 1000 });
    const [a, b, c] = [socket(), socket(), socket()];
    gate.admit(a);
    gate.admit(b);
    gate.admit(c);
    expect({ pending: gate.pending, destroyed: [a.destroyed, b.destroyed, c.destroyed] }).toStrictEqual({ pending: 2, destroyed: [false, false, true] });
  });

  it('are closed when their window ends, and leave the count when they close', async () => {
    const gate = new AuthGate(TOKEN, { maxPending: 4, windowMs: 1000 });
    const [a, b] = [socket(), socket()];
    gate.admit(a);
    vi.advanceTimersByTime(500);
    gate.admit(b);
    vi.advanceTimersByTime(499);
    expect([a.destroyed, b.destroyed]).toStrictEqual([false, false]);
    vi.advanceTimersByTime(1);
    expect([a.destroyed, b.destroyed]).toStrictEqual([true, false]);
    await closesSettle();
    expect(gate.pending).toBe(1);
    vi.advanceTimersByTime(500);
    await closesSettle();
    expect({ destroyed: b.destroyed, pending: gate.pending }).toStrictEqual({ destroyed: true, pending: 0 });
  });

  it('one that closes itself frees its place for another', async () => {
    const gate = new AuthGate(TOKEN, { maxPending: 1, windowMs: 1000 });
    const [a, b] = [socket(), socket()];
    gate.admit(a);
    a.destroy();
    await closesSettle();
    gate.admit(b);
    expect({ pending: gate.pending, destroyed: b.destroyed }).toStrictEqual({ pending: 1, destroyed: false });
  });

  it('by default: 16 at once, for 5 seconds', () => {
    expect([MAX_UNAUTHENTICATED_CONNECTIONS, UNAUTHENTICATED_WINDOW_MS]).toStrictEqual([16, 5_000]);
    const gate = new AuthGate(TOKEN);
    const admitted = Array.from({ length: 17 }, () => socket());
    for (const each of admitted) gate.admit(each);
    expect(admitted.map((each) => each.destroyed)).toStrictEqual([...Array<boolean>(16).fill(false), true]);
    vi.advanceTimersByTime(4_999);
    expect(admitted[0]!.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(admitted.every((each) => each.destroyed)).toBe(true);
  });
});

describe('AuthGate: the bearer token', () => {
  it('is accepted only whole, after "Bearer ", as the whole header', () => {
    const gate = new AuthGate(TOKEN);
    const on = socket();
    const headers = [
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `bearer ${TOKEN}`,
      `Basic ${TOKEN}`,
      `xBearer ${TOKEN}`,
      `Bearer ${TOKEN} extra`,
      `Bearer  ${TOKEN}`,
      'Bearer ',
      TOKEN,
      undefined,
    ];
    expect(headers.map((header) => gate.authorized(request(on, header)))).toStrictEqual([true, false, false, false, false, false, false, false, false, false, false]);
  });

  it('an authenticated connection leaves the pending set and is not closed by its window; each request is still checked', async () => {
    const gate = new AuthGate(TOKEN, { maxPending: 1, windowMs: 1000 });
    const trusted = socket();
    gate.admit(trusted);
    expect(gate.authorized(request(trusted, `Bearer ${TOKEN}`))).toBe(true);
    expect(gate.pending).toBe(0);
    const next = socket();
    gate.admit(next);
    expect({ pending: gate.pending, destroyed: next.destroyed }).toStrictEqual({ pending: 1, destroyed: false });
    vi.advanceTimersByTime(1000);
    expect([trusted.destroyed, next.destroyed]).toStrictEqual([false, true]);
    expect([gate.authorized(request(trusted, 'Bearer wrong')), gate.authorized(request(trusted, `Bearer ${TOKEN}`))]).toStrictEqual([false, true]);
  });

  it('a wrong token leaves the connection pending, to be closed by its window', () => {
    const gate = new AuthGate(TOKEN, { maxPending: 2, windowMs: 1000 });
    const stranger = socket();
    gate.admit(stranger);
    expect(gate.authorized(request(stranger, 'Bearer not-the-token'))).toBe(false);
    expect(gate.pending).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(stranger.destroyed).toBe(true);
  });
});

describe('loopbackHost', () => {
  it('names this machine: 127.0.0.1, localhost or [::1], any case, with or without a port', () => {
    const hosts = ['127.0.0.1', '127.0.0.1:47100', 'localhost', 'LocalHost:1', '[::1]', '[::1]:65535', 'localhost:12345'];
    expect(hosts.map(loopbackHost)).toStrictEqual(hosts.map(() => true));
  });

  it('refuses any other name, a name that only starts or ends like one, a bad port, and no Host', () => {
    const hosts = [undefined, '', 'evil.example', '127.0.0.1.evil.example', 'evil.127.0.0.1', 'xlocalhost', 'localhost:', 'localhost:123456', 'localhost:80x', '127x0x0x1', '::1', '[::2]', '127.0.0.2'];
    expect(hosts.map(loopbackHost)).toStrictEqual(hosts.map(() => false));
  });
});
