// `hookbox hook <agent>`: the command hook an agent runs per event. Plain
// CommonJS on node: builtins only — no TypeScript loader, and not even the ESM
// loader (an .mjs entry cost a measurable share of a bare node start) — so it
// starts about as fast as node itself: stdin →
// POST /hooks/<agent> on `hookbox serve`'s unix socket → the answer's stdout,
// stderr and exit code. With no server listening, or a server that serves
// another project's config, it decides in-process (loading the host: slow,
// same answers). Fails closed: past its deadline (`--deadline-ms`, which
// `setup` derives from the hooks' own limits and keeps below the agent's
// handler timeout), or on anything it cannot turn into a decision, it answers
// the event's closed form in the agent's format (hook-closed.cjs).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: no ESM loader on the hot path */
// First: the modules below (and the host, when deciding in-process) then load from the compile cache.
require('./compile-cache.cjs').enableCompileCache();
const http = require('node:http');
const { homedir } = require('node:os');
const { dirname, isAbsolute, join, relative, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const { autostart } = require('./autostart.cjs');
const { closedAnswer } = require('./hook-closed.cjs');
const { MAX_ANSWER, NONCE_HEADER, newNonce, readProvedAnswer, unsafeListener } = require('../listener-proof.cjs');
const wire = require('../wire.cjs');

const { CONFIG_HEADER, DEFAULT_DEADLINE_MS, DEFAULT_MAX_CONTINUATIONS, EXIT_HEADER, MAX_SOCKET_PATH, MAX_STDIN, PROJECT_DIR_VARIABLE, REFUSED_HEADER, sniffEvent } = wire;
/** The agents whose events carry no name: the event is the command line's (host/wire.cjs says why). */
const EVENT_ON_COMMAND_LINE = new Set(wire.EVENT_ON_COMMAND_LINE);
/** A project's socket beside its config (host/cli/setup-paths.ts's PROJECT_SOCKET): the one a client starts a server on. */
const PROJECT_SOCKET = join('.hookbox', 'run', 'serve.sock');

/** The event a closed answer is written for. */
function closedEvent(options, text) {
  return EVENT_ON_COMMAND_LINE.has(options.agent) ? options.event : sniffEvent(text);
}

/**
 * Where relative `--socket` and `--config` paths start: the project the agent
 * runs in (Claude Code and Gemini CLI name it in the environment; Codex runs
 * hooks in the session's folder), so a committed settings file names no
 * machine's paths. Only the running agent's own variable counts: another
 * agent's may be inherited from the terminal it was started in.
 */
function projectDir(agent, env = process.env) {
  for (const name of ['HOOKBOX_PROJECT_DIR', PROJECT_DIR_VARIABLE[agent]]) {
    if (name !== undefined && env[name] !== undefined && env[name] !== '' && isAbsolute(env[name])) return env[name];
  }
  return process.cwd();
}

function defaultSocket(env = process.env) {
  return join(resolve(env.HOOKBOX_HOME ?? join(homedir(), '.hookbox')), 'serve.sock');
}

/** The arguments; a bad one is reported as `error` (answered closed once the event is known), never thrown. */
function parseArgs(argv) {
  const options = {
    agent: undefined,
    // The event, for an agent whose events carry no name (Copilot CLI): `hookbox hook copilot preToolUse`.
    event: undefined,
    socket: process.env.HOOKBOX_SOCKET,
    config: process.env.HOOKBOX_CONFIG,
    maxContinuations: DEFAULT_MAX_CONTINUATIONS,
    deadlineMs: DEFAULT_DEADLINE_MS,
    answerClosed: undefined,
    noAutostart: false,
    error: undefined,
  };
  const bad = (text) => (options.error ??= text);
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) return void bad(`${arg} needs a value`);
      i += 1;
      return argv[i];
    };
    if (arg === '--socket') options.socket = value();
    else if (arg === '--config') options.config = value();
    else if (arg === '--no-autostart') options.noAutostart = true;
    else if (arg === '--max-continuations') options.maxContinuations = Number(value());
    // The sh client gave up on the server (its deadline, curl failing, no decision): the closed answer, asking nobody.
    else if (arg === '--answer-closed') options.answerClosed = value() ?? 'answered closed';
    else if (arg === '--deadline-ms') {
      const ms = Number(value());
      if (Number.isInteger(ms) && ms > 0) options.deadlineMs = ms;
      else bad(`--deadline-ms expects a positive integer, got ${argv[i]}`);
    } else if (arg.startsWith('-')) bad(`unknown option ${arg}`);
    else if (options.agent === undefined) options.agent = arg;
    else if (options.event === undefined) options.event = arg;
    else bad(`unexpected argument ${arg}`);
  }
  if (options.agent === undefined) bad('usage: hookbox hook <agent> [<event>] [--socket PATH] [--config FILE] [--deadline-ms N]');
  else if (!/^[a-z0-9-]+$/.test(options.agent)) bad(`bad agent name ${options.agent}`);
  if (options.event !== undefined && !/^[A-Za-z]{1,40}$/.test(options.event)) {
    bad(`bad event name ${options.event}`);
    options.event = undefined;
  }
  const base = projectDir(options.agent);
  options.socket = options.socket === undefined || options.socket === '' ? defaultSocket() : resolve(base, options.socket);
  if (options.config !== undefined && options.config !== '') options.config = resolve(base, options.config);
  else options.config = undefined;
  return options;
}

/** A socket path the kernel takes: the absolute one, or (past 107 bytes) the same file relative to the cwd. */
function connectablePath(socket) {
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH) return socket;
  const near = relative(process.cwd(), socket);
  return Buffer.byteLength(near) <= MAX_SOCKET_PATH ? near : socket;
}

function readStdin() {
  return new Promise((resolvePromise, reject) => {
    const chunks = [];
    let size = 0;
    process.stdin.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_STDIN) reject(new Error(`stdin over ${MAX_STDIN} bytes`));
      else chunks.push(chunk);
    });
    process.stdin.on('end', () => resolvePromise(Buffer.concat(chunks)));
    process.stdin.on('error', reject);
  });
}

/** Writes one answer and exits; every later answer (a deadline racing a decision) is dropped. */
function answerOnce() {
  let done = false;
  return (answer) => {
    if (done) return;
    done = true;
    if (answer.exitCode === 0) process.stdout.write(answer.stdout);
    else process.stderr.write(answer.stderr.endsWith('\n') ? answer.stderr : `${answer.stderr}\n`);
    process.exitCode = answer.exitCode;
    // Flush, then leave: a hook still running in-process must not keep the agent waiting.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(answer.exitCode)));
  };
}

/**
 * Asks the server; resolves `undefined` when no server listens on the socket.
 * Before connecting, the socket's folders and the socket itself must pass the
 * rules `hookbox serve` keeps (host/listener-proof.cjs), and the answer must
 * carry the proof only this user's `hookbox serve` can make: anything else on
 * the socket (another user's process behind a symlinked `.hookbox`, a
 * squatter) is refused, never asked and never obeyed.
 */
function ask(options, body) {
  const unsafe = unsafeListener(options.socket);
  if (unsafe === 'absent') return Promise.resolve(undefined);
  if (unsafe !== undefined) return Promise.reject(new Error(`refusing to ask the listener on ${options.socket}: ${unsafe}`));
  const nonce = newNonce();
  return new Promise((resolvePromise, reject) => {
    const req = http.request(
      {
        socketPath: connectablePath(options.socket),
        path: `/hooks/${options.agent}${options.event === undefined ? '' : `/${options.event}`}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          [NONCE_HEADER]: nonce,
          ...(options.config !== undefined && { [CONFIG_HEADER]: encodeURIComponent(options.config) }),
        },
      },
      (res) => readProvedAnswer(req, res, options.socket, nonce, `the answer from ${options.socket} is over ${MAX_ANSWER} bytes, more than hookbox serve writes`, resolvePromise, reject),
    );
    req.on('error', (error) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolvePromise(undefined);
      else reject(error);
    });
    req.end(body);
  });
}

async function inProcess(options, body) {
  // The shipped build (always, when installed; in a checkout while fresh), else the sources through tsx.
  const { freshBuild } = await import('../fresh-build.mjs');
  const dist = freshBuild();
  let decideInProcess;
  if (dist !== undefined) {
    ({ decideInProcess } = await import(new URL('host/serve/in-process.js', dist).href));
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    ({ decideInProcess } = await import(pathToFileURL(join(__dirname, '..', 'serve', 'in-process.ts')).href));
  }
  return decideInProcess(options.agent, resolve(options.config), body.toString('utf8'), options.maxContinuations, options.event);
}

async function decide(options, body) {
  const reply = await ask(options, body);
  if (reply === undefined || reply.refused === 'other-config') {
    const why = reply === undefined ? `no hookbox server at ${options.socket}` : `the hookbox server at ${options.socket} serves another config`;
    if (options.config === undefined) throw new Error(`${why}, and no --config to decide in-process`);
    // The project's own socket: start its server for the next events (this one is decided here either way).
    if (options.socket === join(dirname(options.config), PROJECT_SOCKET)) autostart(options);
    return inProcess(options, body);
  }
  if (reply.refused !== undefined) throw new Error(`the hookbox server at ${options.socket} refused the event (${reply.refused})`);
  if (reply.exit !== '0' && reply.exit !== '2') throw new Error(`hookbox serve answered HTTP ${reply.status} without a decision`);
  // Not 200 and nothing said: an error page, not "no objection" (the server's own refusals carry the closed answer).
  if (reply.status !== 200 && reply.exit === '0' && reply.text === '') throw new Error(`hookbox serve answered HTTP ${reply.status} without a decision`);
  // A refusal with no reason is still a refusal, but the agent is told why in its own closed form.
  if (reply.exit === '2' && reply.text.trim() === '') throw new Error('hookbox serve answered closed without a reason');
  const exitCode = Number(reply.exit);
  return { exitCode, stdout: exitCode === 0 ? reply.text : '', stderr: exitCode === 0 ? '' : reply.text };
}

async function runHookClient(argv) {
  const options = parseArgs(argv);
  const agent = options.agent ?? '';
  const answer = answerOnce();
  let text = '';
  // The deadline counts from the client's start: reading stdin, asking the server, or deciding in-process.
  const timer = setTimeout(
    () => answer(closedAnswer(agent, closedEvent(options, text), `no decision within ${options.deadlineMs} ms (the server or the in-process hooks took too long); answered closed`)),
    options.deadlineMs,
  );
  try {
    const body = await readStdin();
    text = body.toString('utf8');
    if (options.error !== undefined) throw new Error(options.error);
    if (options.answerClosed !== undefined) throw new Error(options.answerClosed);
    answer(await decide(options, body));
  } catch (error) {
    answer(closedAnswer(agent, closedEvent(options, text), error instanceof Error ? error.message : error));
  } finally {
    clearTimeout(timer);
  }
}

module.exports = { runHookClient, parseArgs, PROJECT_SOCKET, EVENT_ON_COMMAND_LINE, connectablePath, PROJECT_DIR_VARIABLE, DEFAULT_DEADLINE_MS, DEFAULT_MAX_CONTINUATIONS, MAX_SOCKET_PATH, EXIT_HEADER, REFUSED_HEADER, CONFIG_HEADER, defaultSocket };

// Run directly (`node hookbox-hook.cjs <agent> …`, what `hookbox setup` writes): the fastest start.
if (require.main === module) void runHookClient(process.argv.slice(2));
