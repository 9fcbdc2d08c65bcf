// `hookbox hook <agent>`: the command hook an agent runs per event. Plain
// CommonJS on node: builtins only — no TypeScript loader, and not even the ESM
// loader (an .mjs entry cost a measurable share of a bare node start) — so it
// starts about as fast as node itself: stdin →
// POST /hooks/<agent> on `hookbox serve`'s unix socket → the answer's stdout,
// stderr and exit code. With no server listening it decides in-process
// (loading the host: slow, same answers). Fails closed: anything
// it cannot turn into a decision exits 2 with a one-line reason on stderr.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: no ESM loader on the hot path */
const http = require('node:http');
const { homedir } = require('node:os');
const { join, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');

const EXIT_HEADER = 'x-hookbox-exit';
const MAX_STDIN = 4 * 1024 * 1024;
const TIMEOUT_MS = 25_000;

function fail(reason) {
  process.stderr.write(`hookbox hook: ${String(reason).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 500)}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { agent: undefined, socket: process.env.HOOKBOX_SOCKET, config: process.env.HOOKBOX_CONFIG, maxContinuations: 3 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${arg} needs a value`);
      i += 1;
      return argv[i];
    };
    if (arg === '--socket') options.socket = value();
    else if (arg === '--config') options.config = value();
    else if (arg === '--max-continuations') options.maxContinuations = Number(value());
    else if (arg.startsWith('-')) fail(`unknown option ${arg}`);
    else if (options.agent === undefined) options.agent = arg;
    else fail(`unexpected argument ${arg}`);
  }
  if (options.agent === undefined) fail('usage: hookbox hook <agent> [--socket PATH] [--config FILE]');
  if (!/^[a-z0-9-]+$/.test(options.agent)) fail(`bad agent name ${options.agent}`);
  options.socket ??= join(resolve(process.env.HOOKBOX_HOME ?? join(homedir(), '.hookbox')), 'serve.sock');
  return options;
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

function emit(exitCode, text) {
  if (exitCode === 0) process.stdout.write(text);
  else process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  process.exitCode = exitCode;
}

/** Asks the server; resolves `undefined` when no server listens on the socket. */
function ask(options, body) {
  return new Promise((resolvePromise, reject) => {
    const req = http.request(
      {
        socketPath: options.socket,
        path: `/hooks/${options.agent}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolvePromise({ status: res.statusCode, exit: res.headers[EXIT_HEADER], text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from hookbox serve within ${TIMEOUT_MS} ms`)));
    req.on('error', (error) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolvePromise(undefined);
      else reject(error);
    });
    req.end(body);
  });
}

async function inProcess(options, body) {
  if (options.config === undefined) fail(`no hookbox server at ${options.socket}, and no --config to decide in-process`);
  // The shipped build (always, when installed; in a checkout while fresh), else the sources through tsx.
  const { freshBuild } = await import('./fresh-build.mjs');
  const dist = freshBuild();
  let decideInProcess;
  if (dist !== undefined) {
    ({ decideInProcess } = await import(new URL('host/serve/in-process.js', dist).href));
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    ({ decideInProcess } = await import(pathToFileURL(join(__dirname, '..', 'serve', 'in-process.ts')).href));
  }
  const answer = await decideInProcess(options.agent, resolve(options.config), body.toString('utf8'), options.maxContinuations);
  emit(answer.exitCode, answer.exitCode === 0 ? answer.stdout : answer.stderr);
}

async function runHookClient(argv) {
  try {
    const options = parseArgs(argv);
    const body = await readStdin();
    const reply = await ask(options, body);
    if (reply === undefined) return await inProcess(options, body);
    if (reply.exit !== '0' && reply.exit !== '2') fail(`hookbox serve answered HTTP ${reply.status} without a decision`);
    emit(Number(reply.exit), reply.text);
  } catch (error) {
    fail(error instanceof Error ? error.message : error);
  }
}

module.exports = { runHookClient };

// Run directly (`node hookbox-hook.cjs <agent> …`, what `hookbox setup` writes): the fastest start.
if (require.main === module) void runHookClient(process.argv.slice(2));
