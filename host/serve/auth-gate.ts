import { createHash, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import type { Socket } from 'node:net';

/** Connections on the TCP port that have not yet sent one authenticated request, at most. */
export const MAX_UNAUTHENTICATED_CONNECTIONS = 16;
/** How long a TCP connection may stay open before its first authenticated request. */
export const UNAUTHENTICATED_WINDOW_MS = 5_000;

/**
 * The TCP listener's door: the bearer token, checked from the headers
 * before any body byte is read; the `Host` a request names (a page a
 * browser loaded from elsewhere can reach 127.0.0.1 by DNS rebinding, and
 * then sends its own name); and a cap on connections that have not
 * authenticated — in number and in time — so idle or slow strangers cannot
 * pile up memory or sockets. The unix socket needs none of it: its folder
 * (0700, yours) is the door.
 */
export class AuthGate {
  readonly #digest: Buffer;
  readonly #pending = new Map<Socket, NodeJS.Timeout>();
  readonly #trusted = new WeakSet<Socket>();
  readonly #maxPending: number;
  readonly #windowMs: number;

  constructor(token: string, limits: { readonly maxPending?: number; readonly windowMs?: number } = {}) {
    this.#digest = sha256(token);
    this.#maxPending = limits.maxPending ?? MAX_UNAUTHENTICATED_CONNECTIONS;
    this.#windowMs = limits.windowMs ?? UNAUTHENTICATED_WINDOW_MS;
  }

  /** Connections waiting for their first authenticated request. */
  get pending(): number {
    return this.#pending.size;
  }

  /** A new TCP connection: refused past the cap; closed when it has not authenticated in time. */
  admit(socket: Socket): void {
    if (this.#pending.size >= this.#maxPending) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), this.#windowMs);
    timer.unref();
    this.#pending.set(socket, timer);
    socket.once('close', () => this.#settle(socket));
  }

  /**
   * Whether the request carries `Authorization: Bearer <the whole token>`.
   * Both sides are hashed before the constant-time compare, so neither a
   * prefix nor the length leaks through timing. An authenticated connection
   * leaves the pending set (keep-alive requests on it are checked again).
   */
  authorized(req: http.IncomingMessage): boolean {
    const match = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? '');
    if (match === null || !timingSafeEqual(sha256(match[1]!), this.#digest)) return false;
    if (!this.#trusted.has(req.socket)) {
      this.#trusted.add(req.socket);
      this.#settle(req.socket);
    }
    return true;
  }

  #settle(socket: Socket): void {
    const timer = this.#pending.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#pending.delete(socket);
  }
}

/** Whether a `Host` header names this machine's loopback (any port): 127.0.0.1, localhost, [::1]. */
export function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  return /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i.test(host);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
