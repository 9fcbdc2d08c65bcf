// The client inside the agents that load hookbox in their own process (pi's
// extension, OpenCode's and Kilo CLI's plugin): one event → POST
// /hooks/<agent> on `hookbox serve`'s unix socket → one answer in the plugin
// vocabulary (host/agents/plugin-answers.ts). With no server listening, or a server
// serving another config, it hands the event to a `hookbox hook <agent>`
// process, which decides in-process. None of them times a plugin, so this
// client keeps its own deadline for the whole of it; past the deadline, on an
// answer it cannot read, or on its own error it answers closed: a tool call
// denied, a result withheld, a prompt blocked. Every text it hands the agent
// is made printable here too (the bridge already did; this is not its only
// guard). Plain ESM on node builtins and zod: pi runs it in Node, OpenCode and
// Kilo in Bun.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import listenerProof from '../listener-proof.cjs';
import wire from '../wire.cjs';

const { MAX_ANSWER, NONCE_HEADER, newNonce, readProvedAnswer, unsafeListener } = listenerProof;
const { CONFIG_HEADER, FORMS, MAX_SOCKET_PATH, PLUGIN_CLOSED, fill } = wire;

/** Longest text handed to the agent (the bridge caps at 4,000 per text; this is the backstop). */
const MAX_TEXT = 64 * 1024;
/** The least deadline a plugin takes: below it a healthy server on a loaded machine would be answered closed. */
const MIN_DEADLINE_MS = 100;

/** What a plugin file hands its factory (host/agents/plugin-file.ts writes it). */
const OptionsSchema = z.strictObject({ socket: z.string().min(1), config: z.string().min(1), deadlineMs: z.number().int().min(MIN_DEADLINE_MS) });

const Text = z.string().max(MAX_TEXT);
/** The plugin vocabulary (plugin-answers.ts), each answer exactly one of these shapes. */
const AnswerSchema = z.union([
  z.strictObject({ deny: Text }),
  // A rewrite: the tool's whole new input, put in place of the agent's (bounded by MAX_ANSWER, as every reply).
  z.strictObject({ args: z.record(z.string(), z.unknown()) }),
  z.strictObject({ content: Text, isError: z.boolean().optional(), context: Text.optional() }),
  z.strictObject({ block: Text }),
  z.strictObject({ text: Text, context: Text.optional() }),
  z.strictObject({ context: Text }),
  z.strictObject({ continue: Text }),
]);

/**
 * Text from hookbox or a hook on its way into the agent: the classes
 * host/text/untrusted-text.ts escapes — controls (C0, DEL, C1), format
 * characters (bidi, zero-width, soft hyphen, tags), line and paragraph
 * separators, lone surrogates — shown as `\u{…}` (a newline and a tab kept
 * where `multiLine`), capped.
 */
export function printable(text, multiLine = false) {
  const shown = String(text).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (char) =>
    multiLine && (char === '\n' || char === '\t') ? char : `\\u{${char.codePointAt(0).toString(16)}}`,
  );
  return shown.length > MAX_TEXT ? `${shown.slice(0, MAX_TEXT)}…` : shown;
}

/**
 * A rewrite's input put in place of the agent's own, in the object the agent
 * runs the call with: keys it no longer has removed, the rest set (the
 * bridge sent the whole input, every key the agent sent kept).
 */
export function replaceInput(target, input) {
  for (const key of Object.keys(target)) if (!Object.hasOwn(input, key)) delete target[key];
  Object.assign(target, input);
}

/** The closed answer for an event of `kind` ('preTool' | 'postTool' | 'prompt' | 'let-through'): host/wire.cjs's plugin forms. */
export function closedAnswer(kind, reason) {
  const form = Object.hasOwn(PLUGIN_CLOSED, kind) ? PLUGIN_CLOSED[kind] : undefined;
  return form === undefined ? {} : fill(FORMS[form], `hookbox: ${printable(reason)}`);
}

/** An answer as the agent may take it: every text printable (`context` and `content` keep their lines). */
function printableAnswer(answer) {
  const out = {};
  for (const [key, value] of Object.entries(answer)) out[key] = typeof value === 'string' ? printable(value, key === 'content' || key === 'context' || key === 'text') : value;
  return out;
}

/** A socket path the kernel takes: the absolute one, or (past 107 bytes) the same file relative to the cwd. */
function connectablePath(socket) {
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH) return socket;
  const near = relative(process.cwd(), socket);
  return Buffer.byteLength(near) <= MAX_SOCKET_PATH ? near : socket;
}

/**
 * The errors that mean nothing listens on the socket: Node's, and Bun's
 * (OpenCode's runtime: a missing socket file is `FailedToOpenSocket` there).
 * Either way the event is then decided in-process, never let through.
 */
const NO_SERVER = new Set(['ENOENT', 'ECONNREFUSED', 'FailedToOpenSocket', 'ConnectionRefused']);

/**
 * One POST to the server; `undefined` when nothing listens on the socket. The
 * socket's folders and the answer's proof are checked as the command clients
 * check them (host/listener-proof.cjs): a listener that is not this user's
 * `hookbox serve` is refused, never obeyed.
 */
function ask(settings, body, signal) {
  const unsafe = unsafeListener(settings.socket);
  if (unsafe === 'absent') return Promise.resolve(undefined);
  if (unsafe !== undefined) return Promise.reject(new Error(`refusing to ask the listener on ${settings.socket}: ${unsafe}`));
  const nonce = newNonce();
  return new Promise((resolvePromise, reject) => {
    const req = http.request(
      {
        socketPath: connectablePath(settings.socket),
        path: `/hooks/${settings.agent}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [CONFIG_HEADER]: encodeURIComponent(settings.config),
          [NONCE_HEADER]: nonce,
        },
        signal,
      },
      (res) => readProvedAnswer(req, res, settings.socket, nonce, `the server's answer is over ${MAX_ANSWER} bytes`, resolvePromise, reject),
    );
    req.on('error', (error) => {
      if (NO_SERVER.has(error.code)) resolvePromise(undefined);
      else reject(error);
    });
    req.end(body);
  });
}

/** `hookbox hook <agent>` (node, from the agent's PATH) with the event on stdin: decides in-process. */
function askProcess(settings, body, deadlineMs, signal) {
  return new Promise((resolvePromise, reject) => {
    const args = [settings.hookClient, settings.agent, '--socket', settings.socket, '--config', settings.config, '--deadline-ms', String(deadlineMs)];
    const child = spawn('node', args, { stdio: ['pipe', 'pipe', 'pipe'], signal, env: { ...process.env, HOOKBOX_PROJECT_DIR: settings.project } });
    const out = [];
    const err = [];
    let size = 0;
    const take = (into) => (chunk) => {
      size += chunk.length;
      if (size > MAX_ANSWER) child.kill('SIGKILL');
      else into.push(chunk);
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(err));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ exit: String(code), text: Buffer.concat(code === 0 ? out : err).toString('utf8') }));
    child.stdin.on('error', () => {}); // a child that exits before reading: its exit code says what happened
    child.stdin.end(body);
  });
}

/** The answers each kind of event takes: any other (a result replacement for a tool call, say) is not a decision for it. */
const ANSWER_KEYS = {
  preTool: ['deny', 'args'],
  postTool: ['content', 'isError', 'context'],
  prompt: ['block', 'text', 'context'],
  'let-through': ['context', 'continue'],
  // A compaction: only a block is read; with no closed form (not in PLUGIN_CLOSED) a fault lets it go ahead.
  compact: ['block'],
};

/** A reply (server or process) to an event of `kind` → the answer; anything but a decision for it throws (and is answered closed). */
function readReply(reply, kind) {
  if (reply.refused !== undefined) throw new Error(`the hookbox server refused the event (${printable(reply.refused)})`);
  if (reply.exit === '2') throw new Error(reply.text.trim().replace(/^hookbox: /, '') || 'hookbox answered closed without a reason');
  if (reply.exit !== '0') throw new Error(`hookbox answered ${reply.status === undefined ? `exit ${reply.exit}` : `HTTP ${reply.status}`} without a decision`);
  const text = reply.text.trim();
  // Not 200 and nothing said: an error page, not "no objection".
  if (reply.status !== undefined && reply.status !== 200 && text === '') throw new Error(`hookbox answered HTTP ${reply.status} without a decision`);
  if (text === '') return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('hookbox answered with text that is not JSON');
  }
  const parsed = AnswerSchema.safeParse(value);
  if (!parsed.success) throw new Error(`hookbox's answer is not one the plugin reads (${parsed.error.issues[0]?.message ?? 'bad shape'})`);
  const foreign = Object.keys(parsed.data).filter((key) => !(ANSWER_KEYS[kind] ?? []).includes(key));
  if (foreign.length > 0) throw new Error(`hookbox's answer (${foreign.join(', ')}) is not one for this event`);
  return parsed.data;
}

/**
 * A client for one agent, from the options its plugin file holds and that
 * file's `import.meta.url` (relative paths start at the project, two folders
 * above the file). Options that do not parse make every answer closed,
 * naming why: a broken plugin file never lets anything through.
 */
export function pluginClient(agent, options, from) {
  const parsed = OptionsSchema.safeParse(options);
  const project = typeof from === 'string' && from.startsWith('file:') ? fileURLToPath(new URL('../../', from)) : process.cwd();
  const at = (file) => (isAbsolute(file) ? file : resolve(project, file));
  const settings = parsed.success
    ? {
        agent,
        project,
        socket: at(parsed.data.socket),
        config: at(parsed.data.config),
        deadlineMs: parsed.data.deadlineMs,
        hookClient: fileURLToPath(new URL('../cli/hookbox-hook.cjs', import.meta.url)),
      }
    : undefined;
  const broken = parsed.success ? undefined : `the hookbox plugin's options are not valid (${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`).join('; ')}); run hookbox setup ${agent} again`;

  /** One event (its `kind` says what closed means for it) → the answer; never throws, never outlives the deadline. */
  async function decide(event, kind) {
    if (settings === undefined) return closedAnswer(kind, broken);
    const started = Date.now();
    const abort = new AbortController();
    let timer;
    const deadline = new Promise((resolvePromise) => {
      timer = setTimeout(() => {
        abort.abort();
        resolvePromise(closedAnswer(kind, `no decision within ${settings.deadlineMs} ms (the server or the hooks took too long); answered closed`));
      }, settings.deadlineMs);
    });
    const decided = (async () => {
      try {
        const body = JSON.stringify(event);
        const reply = await ask(settings, body, abort.signal);
        if (reply === undefined || reply.refused === 'other-config') {
          const left = Math.max(MIN_DEADLINE_MS, settings.deadlineMs - (Date.now() - started));
          return printableAnswer(readReply(await askProcess(settings, body, left, abort.signal), kind));
        }
        return printableAnswer(readReply(reply, kind));
      } catch (error) {
        return closedAnswer(kind, error instanceof Error ? error.message : error);
      }
    })();
    try {
      return await Promise.race([decided, deadline]);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }

  return { decide, settings };
}

/** A session id hookbox accepts (letters, digits, `.`, `_`, `-`; at most 128), or a fresh one for this process. */
export function sessionIdOf(candidate, fallback) {
  return typeof candidate === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(candidate) ? candidate : fallback;
}
