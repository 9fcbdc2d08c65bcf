// A per-event client with no server on its project's socket starts one
// (issue #55): `hookbox serve --autostarted` for the client's config and
// socket, detached in its own session, its output appended to
// `serve.log` beside the socket (where `hookbox doctor` shows it). The
// client answers the event at hand as before (in-process, or closed past its
// deadline); the next events go to the server. The server takes
// `<socket>.pid` O_EXCL before it loads anything, so several first events at
// once start one server; a config it would refuse it never listens with.
// It leaves after an idle period, on `hookbox serve --stop`, and when the
// config on disk changes (the next event starts a fresh one).
// Off with HOOKBOX_NO_AUTOSTART=1 or the client's `--no-autostart` (setup writes it with `--no-autostart`).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the node client loads no ESM on its hot path */
const { spawn } = require('node:child_process');
const { closeSync, lstatSync, mkdirSync, openSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The log a self-started server writes (its start, its requests, why it left). */
function serveLogOf(socket) {
  return join(dirname(socket), 'serve.log');
}

/** Whether a server's pid file names a live process (a server starting, or serving). */
function serverStarting(socket) {
  try {
    const pid = Number(readFileSync(`${socket}.pid`, 'utf8').trim());
    if (!Number.isSafeInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Starts `hookbox serve` for this config on this socket unless turned off or
 * one is starting already. Returns why it did not (undefined: started).
 * Never throws: a server that cannot start leaves the event to the in-process decision.
 */
function autostart(options, env = process.env) {
  if (env.HOOKBOX_NO_AUTOSTART === '1') return 'HOOKBOX_NO_AUTOSTART=1';
  if (options.noAutostart) return '--no-autostart';
  if (options.config === undefined) return 'no --config';
  if (serverStarting(options.socket)) return 'a server is starting';
  let log;
  try {
    const dir = dirname(options.socket);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    // The folder the socket goes in: this user's real folder (the server makes it 0700 and checks it again).
    if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) return `${dir} is not your folder`;
    log = openSync(serveLogOf(options.socket), 'a', 0o600);
    const child = spawn(
      process.execPath,
      [join(__dirname, 'hookbox.mjs'), 'serve', '--autostarted', '--config', options.config, '--socket', options.socket, ...(env.HOOKBOX_SERVE_EXIT_IDLE ? ['--exit-idle', env.HOOKBOX_SERVE_EXIT_IDLE] : [])],
      { cwd: dirname(options.config), detached: true, stdio: ['ignore', log, log] },
    );
    child.on('error', () => {});
    child.unref();
    return undefined;
  } catch (error) {
    return `could not start hookbox serve (${error.message})`;
  } finally {
    if (log !== undefined) closeSync(log);
  }
}

module.exports = { autostart, serveLogOf };
