import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AgentSetup, SetupTransport } from './agent-bridge.ts';
import { handlerPositions } from './hook-groups.ts';
import type { ManagedSystemSetup, NoSystemSetup } from './system-scope.ts';

export type { ManagedSystemSetup, NoSystemSetup, SystemInspection, SystemOriginal, SystemSetup } from './system-scope.ts';

function parseObject(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message}); fix it first, hookbox will not overwrite it`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected a JSON object at the top level of ${what}`);
  return value as Record<string, unknown>;
}

function getPath(settings: Record<string, unknown>, keys: readonly string[]): unknown {
  let node: unknown = settings;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Sets (or, for `undefined`, deletes) a dotted key, making and pruning the objects on the way; the input is not mutated. */
function setPath(settings: Record<string, unknown>, keys: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = keys as [string, ...string[]];
  const copy = { ...settings };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  const inner = setPath(typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : {}, rest, value);
  if (Object.keys(inner).length === 0 && value === undefined) delete copy[head];
  else copy[head] = inner;
  return copy;
}

/** One lock key of a JSON settings file: its dotted path and the value `--lock` writes. */
export interface JsonLockKey {
  readonly path: readonly string[];
  readonly value: unknown;
}

/** The parts of a JSON managed file that differ between agents. */
export interface JsonSystemSpec {
  readonly files: Partial<Record<NodeJS.Platform, string>>;
  /** The agent's own settings editing (the layout its project and user files use). */
  readonly setup: Pick<AgentSetup, 'apply' | 'remove'>;
  /** The events hookbox registers with a command transport (doctor's "missing" list). */
  readonly events: readonly string[];
  /** Whether a handler is hookbox's. */
  isOurs(handler: unknown): boolean;
  readonly lock: readonly JsonLockKey[];
  readonly lockRefuses: string;
  readonly lowerScope: ManagedSystemSetup['lowerScope'];
}

/** A managed scope that is one JSON settings file in the agent's own hooks layout (Claude Code, Gemini CLI). */
export function jsonSystemSetup(spec: JsonSystemSpec): ManagedSystemSetup {
  return {
    kind: 'managed',
    file: (platform) => spec.files[platform],
    apply(text, command, options) {
      const transport: SetupTransport = { kind: 'command', command };
      let settings = spec.setup.apply(parseObject(text, 'the file'), transport, options.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: options.answerTimeoutMs }).settings;
      if (options.lock) for (const key of spec.lock) settings = setPath(settings, key.path, key.value);
      return `${JSON.stringify(settings, null, 2)}\n`;
    },
    remove(text, original) {
      let settings = spec.setup.remove(parseObject(text, 'the file')).settings;
      const before = original?.existed === true ? parseObject(original.text, 'the recorded original') : {};
      for (const key of spec.lock) settings = setPath(settings, key.path, getPath(before, key.path));
      if (original?.existed === true && isDeepStrictEqual(settings, before)) return original.text;
      if (original?.existed !== true && Object.keys(settings).length === 0) return undefined;
      return `${JSON.stringify(settings, null, 2)}\n`;
    },
    inspect(text) {
      const settings = parseObject(text, 'the file');
      const found = handlerPositions(settings)
        .filter((position) => spec.isOurs(position.handler))
        .map((position) => ({ event: position.event, command: String(position.handler.command) }));
      return {
        missing: spec.events.filter((event) => !found.some((handler) => handler.event === event)),
        commands: [...new Set(found.map((handler) => handler.command))],
        locked: spec.lock.every((key) => isDeepStrictEqual(getPath(settings, key.path), key.value)),
      };
    },
    lockKeys: spec.lock.map((key) => `${key.path.join('.')}: ${JSON.stringify(key.value)}`).join(', '),
    lockRefuses: spec.lockRefuses,
    lowerScope: spec.lowerScope,
  };
}

/** For an agent with no machine-wide scope. */
export function noSystemScope(why: string, alternative: string): NoSystemSetup {
  return { kind: 'none', why, alternative };
}

/**
 * Where `setup --system` records what a machine-wide file held before hookbox
 * first wrote it: beside it, a dot-file no agent reads (not `*.json`, not in
 * a drop-in folder), root's like the file.
 */
export function systemOriginalPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.hookbox-original`);
}
