import { existsSync, readFileSync } from 'node:fs';
import { noSystemScope } from '../system-setup.ts';
import path from 'node:path';
import type { AgentSetup, DoctorFinding, SetupChange, SetupEdit, SetupFinish, SetupFinishContext, SetupOptions, SetupScope, SetupTransport, SetupVerifyContext } from '../agent-bridge.ts';
import { type HandlerPosition, handlerPositions, hooksObject, isHookboxCommand } from '../hook-groups.ts';
import { isHookboxHandlerOf } from '../claude-format/setup.ts';
import { foreignCopilotHookFindings } from './foreign-hook-files.ts';
import { COPILOT_EVENT_NAMES } from './protocol.ts';

/** Seconds Copilot waits for hookbox's answer when the operator config gives no figure. */
const DEFAULT_TIMEOUT_S = 30;

/** The `version` Copilot's hook files carry (`{"version": 1, "hooks": {…}}`). */
const FILE_VERSION = 1;

/**
 * hookbox's own handlers: a command running `hookbox hook copilot <event>`
 * (or `… hookbox-hook.sh|cjs copilot …`, what setup writes). Only these are
 * replaced or removed; anything else in the file is the user's.
 */
export function isCopilotHookboxHandler(handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, bash } = handler as Record<string, unknown>;
  return type === 'command' && isHookboxCommand(bash, 'copilot');
}

/**
 * Copilot reads every `*.json` in a project's `.github/hooks/` and in
 * `~/.copilot/hooks/` (both measured with 1.0.102), so hookbox's entries go
 * in a file of its own there: `setup --remove` deletes it when nothing else
 * is left in it, and no settings file of the user's is rewritten.
 */
function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.github', 'hooks', 'hookbox.json') : path.join(scope.home, '.copilot', 'hooks', 'hookbox.json');
}

function handlersOf(hooks: Record<string, unknown>, event: string): unknown[] {
  const handlers = hooks[event];
  if (handlers === undefined) return [];
  if (!Array.isArray(handlers)) throw new TypeError(`hooks.${event}: expected an array of hook commands`);
  return handlers;
}

function describe(handler: Record<string, unknown>): string {
  return `command ${String(handler.bash)} (timeout ${String(handler.timeoutSec)} s)`;
}

/**
 * Adds (or replaces) hookbox's command as the last handler of each event it
 * reads, naming the event on the command line (Copilot's events carry no
 * name). Idempotent; every other key and handler stays, in its order.
 */
function apply(settings: Record<string, unknown>, transport: SetupTransport, options?: SetupOptions): SetupEdit {
  if (transport.kind !== 'command') throw new TypeError('Copilot CLI runs hookbox\'s command hooks only');
  // Above the client's own deadline (answer-deadline.ts): Copilot lets a timed-out hook's call through.
  const timeoutSec = options?.answerTimeoutMs === undefined ? DEFAULT_TIMEOUT_S : Math.ceil(options.answerTimeoutMs / 1000);
  const next = structuredClone(settings);
  if (Object.keys(next).length === 0) next.version = FILE_VERSION;
  const hooks = { ...hooksObject(next) };
  const changes: SetupChange[] = [];
  for (const event of COPILOT_EVENT_NAMES) {
    const before = handlersOf(hooks, event);
    const handler = { type: 'command', bash: `${transport.command} ${event}`, timeoutSec };
    const kept = before.filter((entry) => !isCopilotHookboxHandler(entry));
    const after = [...kept, handler];
    const where = `hooks.${event}[${after.length - 1}]`;
    const action = kept.length === before.length ? 'added' : JSON.stringify(after) === JSON.stringify(before) ? 'unchanged' : 'replaced';
    hooks[event] = after;
    changes.push({ action, where, what: describe(handler) });
  }
  next.hooks = hooks;
  return { settings: next, changes };
}

/** Takes out exactly hookbox's handlers, and the events (and `hooks`) left empty by that. */
function remove(settings: Record<string, unknown>): SetupEdit {
  const next = structuredClone(settings);
  if (next.hooks === undefined) return { settings: next, changes: [] };
  const hooks = { ...hooksObject(next) };
  const changes: SetupChange[] = [];
  for (const event of Object.keys(hooks)) {
    const before = handlersOf(hooks, event);
    const kept = before.filter((entry) => !isCopilotHookboxHandler(entry));
    if (kept.length === before.length) continue;
    before.forEach((entry, index) => {
      if (isCopilotHookboxHandler(entry)) changes.push({ action: 'removed', where: `hooks.${event}[${index}]`, what: describe(entry as Record<string, unknown>) });
    });
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (Object.keys(hooks).length === 0) delete next.hooks;
  else next.hooks = hooks;
  return { settings: next, changes };
}

/** hookbox's handlers as doctor reads them: the command Copilot runs and its timeout. */
function handlers(settings: Record<string, unknown>): HandlerPosition[] {
  const hooks = hooksObject(settings);
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: unknown, index) =>
      isCopilotHookboxHandler(entry)
        ? [{ event, group: index, index: 0, matcher: undefined, handler: { type: 'command', command: (entry as Record<string, unknown>).bash, timeout: (entry as Record<string, unknown>).timeoutSec } }]
        : [],
    ),
  );
}

/** A JSON object file; a file with nothing but its `version` left is no file (`setup --remove` deletes it). */
const fileFormat: NonNullable<AgentSetup['fileFormat']> = {
  parse(text) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(`not valid JSON (${(error as Error).message}); fix it first, hookbox will not overwrite it`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object at the top level');
    return value as Record<string, unknown>;
  },
  format(settings) {
    const left = Object.keys(settings).filter((key) => key !== 'version');
    return left.length === 0 ? undefined : `${JSON.stringify(settings, null, 2)}\n`;
  },
};

/** hookbox's Claude Code entries in the project's `.claude/settings.json`, which Copilot runs too. */
function claudeEntriesIn(dir: string): boolean {
  const file = path.join(dir, '.claude', 'settings.json');
  if (!existsSync(file)) return false;
  try {
    return hasClaudeHookboxHandler(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    return false;
  }
}

function hasClaudeHookboxHandler(settings: Record<string, unknown>): boolean {
  return handlerPositions(settings).some((position) => isHookboxHandlerOf('claude-code', position.handler));
}

const BOTH_NOTE =
  'Copilot CLI also runs the hooks of this project\'s .claude/settings.json, where hookbox\'s Claude Code entries are (measured with 1.0.102: both files\' hooks ran for one call); hookbox decides both copies of each event (no copy is skipped on a guess of who sent it), so a deny or block in either stops the call, and a rewritten prompt or replaced result the Claude Code entries cannot carry is a block there';

/** Setup says when the project's Claude Code setup is read by Copilot too. */
function finish(context: SetupFinishContext): SetupFinish {
  if (context.removing || context.scope.kind !== 'project' || !claudeEntriesIn(context.scope.dir)) return { changes: [], notes: [] };
  return { changes: [], notes: [BOTH_NOTE] };
}

/** `hookbox doctor copilot`: whether a Claude Code setup in the project is read by Copilot too; Copilot hook files hookbox did not write. */
function verify(context: SetupVerifyContext): DoctorFinding[] {
  const foreign = foreignCopilotHookFindings(context.scope);
  if (context.scope.kind !== 'project' || !claudeEntriesIn(context.scope.dir)) return foreign;
  return [{ ok: true, what: BOTH_NOTE }, ...foreign];
}

function tradeOff(): string {
  return 'command transport: Copilot CLI runs `hookbox hook copilot <event>` per event (the event named on the command line: its events carry no name); the client asks `hookbox serve` over its socket and, with no server, decides in-process. Copilot lets a call through when a hook times out (fails open), so the timeout written (seconds) is above the client\'s own deadline, and the client answers closed (deny, block, withhold) on any error of its own; a hook that crashes is a deny in Copilot.';
}

/** Copilot CLI's hooks in its own format: `.github/hooks/hookbox.json` of a project, or `~/.copilot/hooks/hookbox.json`. */
export const copilotSetup: AgentSetup = {
  detect: { folders: ['.github/hooks'], commands: ['copilot'] },
  settingsPath,
  // Every `*.json` of the hooks folder is a hook file to Copilot; the user's settings can hold hooks too.
  protectedPaths: (scope) => [
    { path: path.dirname(settingsPath(scope)), folder: true },
    ...(scope.kind === 'user' ? [{ path: path.join(scope.home, '.copilot', 'settings.json') }] : []),
  ],
  fileFormat,
  handlers,
  system: noSystemScope('no machine-wide hooks folder of Copilot CLI was measured here', "hookbox setup copilot --user (the user's hooks folder) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change it, but the developer can"),
  unsupported: (transport) =>
    transport === 'command'
      ? undefined
      : transport === 'http'
        ? 'Copilot CLI has no http hooks hookbox writes: it skips an http hook to a loopback address unless COPILOT_HOOK_ALLOW_LOCALHOST=1 is set where it runs (measured with 1.0.102: without it the call ran and no hook was asked), so a missing variable fails open silently, and a project\'s hook file is committed, so it cannot hold the bearer token; use --transport command'
        : `Copilot CLI has no ${transport} hooks (it runs command hooks); use --transport command`,
  apply,
  remove,
  tradeOff,
  finish,
  verify,
};
