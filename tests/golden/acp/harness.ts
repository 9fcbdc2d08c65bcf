/**
 * A real ACP client (the official SDK) driving `hookbox acp` as a child
 * process over stdio, recording everything it sees as a transcript.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  type ClientContext,
  PROTOCOL_VERSION,
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
  client,
  ndJsonStream,
} from '@agentclientprotocol/sdk';
import { expect } from 'vitest';

const BIN = fileURLToPath(new URL('../../../host/cli/hookbox.mjs', import.meta.url));
const GOLDEN_DIR = fileURLToPath(new URL('./transcripts/', import.meta.url));

/** How long any one request may take before the test calls it a hang. */
export const REQUEST_CEILING_MS = 20_000;

/** One line of a transcript, in the order the client saw it. */
export type TranscriptEntry =
  | { readonly send: string; readonly params?: unknown }
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly update: SessionUpdate }
  | { readonly permission: RequestPermissionRequest; readonly answer: RequestPermissionResponse };

/** The client's answer to the next permission request. */
export type PermissionAnswer = 'allow' | 'deny' | 'cancelled';

export interface AgentRun {
  readonly transcript: TranscriptEntry[];
  readonly stderr: string;
  readonly exitCode: number | null;
}

/** What a scenario can do with the connected agent. */
export interface Driver {
  readonly transcript: TranscriptEntry[];
  /** Sends a request, records it and its response; returns the result, or the error response. */
  request(method: string, params: unknown): Promise<{ result?: unknown; error?: RequestError }>;
  /** `initialize` with a typical editor's capabilities. */
  initialize(): Promise<unknown>;
  newSession(cwd: string): Promise<string>;
  prompt(sessionId: string, text: string): Promise<{ result?: unknown; error?: RequestError }>;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const ceiling = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, ceiling]).finally(() => clearTimeout(timer));
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Spawns `node host/cli/hookbox.mjs acp ...args` in `cwd`, connects the SDK
 * client to its stdio, runs `op`, then closes stdin and waits for the agent
 * to exit by itself. Permission requests are answered from `answers`, in order.
 */
export async function runAcpAgent(
  args: readonly string[],
  cwd: string,
  answers: readonly PermissionAnswer[],
  op: (driver: Driver) => Promise<void>,
): Promise<AgentRun> {
  const child = spawn(process.execPath, [BIN, 'acp', ...args], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const transcript: TranscriptEntry[] = [];
  const pendingAnswers = [...answers];
  const app = client({ name: 'hookbox-golden' })
    .onNotification('session/update', ({ params }) => {
      transcript.push({ update: params.update });
    })
    .onRequest('session/request_permission', ({ params }) => {
      const next = pendingAnswers.shift();
      if (next === undefined) throw new Error('unexpected permission request');
      const answer: RequestPermissionResponse =
        next === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: next } };
      transcript.push({ permission: params, answer });
      return answer;
    });
  const stream = ndJsonStream(Writable.toWeb(child.stdin!), Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  try {
    await app.connectWith(stream, async (context: ClientContext) => {
      const request: Driver['request'] = async (method, params) => {
        transcript.push({ send: method, params });
        try {
          const result = await within(context.request(method, params), REQUEST_CEILING_MS, method);
          // Notifications that arrived before the response are dispatched by
          // now (their handlers run in microtasks): record the response last.
          await nextMacrotask();
          transcript.push({ result });
          return { result };
        } catch (error) {
          if (!(error instanceof RequestError)) throw error;
          await nextMacrotask();
          transcript.push({ error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } });
          return { error };
        }
      };
      const driver: Driver = {
        transcript,
        request,
        initialize: async () =>
          (
            await request('initialize', {
              protocolVersion: PROTOCOL_VERSION,
              clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
              clientInfo: { name: 'hookbox-golden', version: '1.0.0' },
            })
          ).result,
        newSession: async (sessionCwd) => {
          const { result } = await request('session/new', { cwd: sessionCwd, mcpServers: [] });
          return (result as { sessionId: string }).sessionId;
        },
        prompt: (sessionId, text) => request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
      };
      await op(driver);
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\nagent stderr:\n${stderr}`, { cause: error });
  } finally {
    child.stdin!.end();
  }
  let exitCode: number | null;
  try {
    exitCode = await within(exited(child), 15_000, 'the agent process exiting after stdin closed');
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\nstderr:\n${stderr}`);
  }
  expect(pendingAnswers, 'every scripted permission answer was used').toEqual([]);
  return { transcript, stderr, exitCode };
}

/** Replaces volatile values (the workspace path, session ids) with stable placeholders. */
export function normalise(value: unknown, replacements: Readonly<Record<string, string>>): unknown {
  let json = JSON.stringify(value);
  for (const [from, to] of Object.entries(replacements)) json = json.split(from).join(to);
  return JSON.parse(json) as unknown;
}

/**
 * Compares a transcript with its golden file. Golden files change only
 * through `npm run golden:acp`, which sets HOOKBOX_UPDATE_GOLDEN=acp.
 */
export function expectGolden(name: string, golden: unknown): void {
  const path = join(GOLDEN_DIR, `${name}.json`);
  const text = `${JSON.stringify(golden, null, 2)}\n`;
  if (process.env.HOOKBOX_UPDATE_GOLDEN === 'acp') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing golden file ${path}: run npm run golden:acp`);
  expect(golden, `${name}: the transcript differs from ${path} (if the change is intended, run npm run golden:acp)`).toEqual(
    JSON.parse(readFileSync(path, 'utf8')),
  );
}

/** Every update of a transcript, in order. */
export function updates(transcript: readonly TranscriptEntry[]): SessionUpdate[] {
  return transcript.flatMap((entry) => ('update' in entry ? [entry.update] : []));
}

/** One piece of hook-originated text an editor was sent, with where in the transcript it was. */
export interface HookTextField {
  readonly where: string;
  readonly text: string;
}

function textsOf(content: unknown): string[] {
  const blocks = Array.isArray(content) ? content.map((item) => (item as { content?: unknown }).content) : [content];
  return blocks.flatMap((block) => {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    return type === 'text' && typeof text === 'string' ? [text] : [];
  });
}

/**
 * The text content of every update that shows a hook's decision (hookbox marks
 * each with `_meta.hookbox`: denials, withheld and replaced results, contexts,
 * continuations, rewrites, blocked prompts) and of every permission request
 * (one line per asking hook): what an editor renders as Markdown.
 */
export function hookTextFields(transcript: readonly TranscriptEntry[]): HookTextField[] {
  const fields: HookTextField[] = [];
  transcript.forEach((entry, index) => {
    if ('update' in entry) {
      const update = entry.update as { sessionUpdate: string; content?: unknown; _meta?: Record<string, unknown> };
      if (update._meta?.hookbox === undefined) return;
      for (const text of textsOf(update.content)) fields.push({ where: `[${index}] ${update.sessionUpdate}`, text });
    } else if ('permission' in entry) {
      for (const text of textsOf(entry.permission.toolCall.content ?? [])) fields.push({ where: `[${index}] session/request_permission`, text });
    }
  });
  return fields;
}
