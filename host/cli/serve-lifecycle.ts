import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError } from '../errors.ts';
import { livePid, takePidFile } from '../serve/serve-lock.ts';

/** How long a self-started server waits for a server it replaces (one leaving on a changed config) to let go of the socket. */
const REPLACE_WAIT_MS = 5_000;

/**
 * The socket's pid file for this server: a hand-started server refuses a
 * socket a live server holds (naming it); a self-started one (a client's
 * first event) waits a moment for a leaving server, then leaves quietly:
 * another start won the race, and it serves the project.
 */
export async function claimSocket(socket: string, config: string, autostarted: boolean): Promise<boolean> {
  const until = Date.now() + (autostarted ? REPLACE_WAIT_MS : 0);
  for (;;) {
    if (takePidFile(socket)) return true;
    if (Date.now() >= until) break;
    await sleep(100);
  }
  const holder = livePid(socket);
  if (autostarted) {
    process.stderr.write(`hookbox serve: another hookbox serve (pid ${holder ?? '?'}) holds ${socket}; leaving it to serve\n`);
    return false;
  }
  throw new ConfigError(`${socket}: another hookbox serve (pid ${holder ?? '?'}) listens there; stop it first (hookbox serve --stop --config ${config})`);
}

/** `hookbox serve --stop`: SIGTERM to the server on the socket, then waits (≤ 15 s) for it to finish its calls and leave. */
export async function stopServer(socket: string): Promise<void> {
  const pid = livePid(socket);
  if (pid === undefined) {
    process.stderr.write(`hookbox serve --stop: no hookbox serve runs on ${socket}\n`);
    return;
  }
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (livePid(socket) !== pid) {
      process.stderr.write(`hookbox serve --stop: stopped pid ${pid} on ${socket}\n`);
      return;
    }
    await sleep(100);
  }
  throw new ConfigError(`hookbox serve --stop: pid ${pid} on ${socket} is still running 15 s after SIGTERM`);
}

/** Calls `idle` once no request came for `seconds`; `touch` on each request. */
export function idleExit(seconds: number, idle: () => void): { touch(): void } {
  let last = Date.now();
  const timer = setInterval(
    () => {
      if (Date.now() - last >= seconds * 1000) {
        clearInterval(timer);
        idle();
      }
    },
    Math.min(seconds * 1000, 60_000) / 4,
  );
  timer.unref();
  return { touch: () => (last = Date.now()) };
}
