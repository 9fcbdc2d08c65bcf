import path from 'node:path';
import type { AgentSetup, SetupChange, SetupEdit, SetupScope, SetupTransport } from './agent-bridge.ts';

/**
 * The events hookbox registers in Claude Code, with a tool matcher where the
 * event has one. Claude Code 2.1.328 runs SessionStart hooks of type
 * `command` only (measured: an http SessionStart hook is never called), so
 * the http transport leaves it out and the server fires session-start itself
 * on the session's first event.
 */
const REGISTERED: readonly { readonly event: string; readonly matcher?: string; readonly commandOnly?: boolean }[] = [
  { event: 'SessionStart', commandOnly: true },
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse', matcher: '*' },
  { event: 'PostToolUse', matcher: '*' },
  { event: 'PostToolUseFailure', matcher: '*' },
  { event: 'Stop' },
];

/** Seconds Claude Code waits for hookbox's answer (a wasm hook's own deadline is far below it). */
const HANDLER_TIMEOUT_S = 30;

type Handler = Record<string, unknown>;
type Group = { matcher?: unknown; hooks?: unknown } & Record<string, unknown>;

/**
 * hookbox's own handlers: a command running `hookbox hook claude-code` (or
 * `node …/hookbox-hook.cjs claude-code`, what setup writes), or an
 * http hook on a loopback `/hooks/claude-code` URL. Only these are replaced
 * or removed; everything else in the settings is the user's.
 */
export function isHookboxHandler(handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, command, url } = handler as Handler;
  if (type === 'command' && typeof command === 'string') {
    const words = command.replace(/['"]/g, '');
    return /hookbox\S*\s+hook\s+claude-code(\s|$)/.test(words) || /\/hookbox-hook\.cjs\s+claude-code(\s|$)/.test(words);
  }
  if (type === 'http' && typeof url === 'string') return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/hooks\/claude-code$/.test(url);
  return false;
}

function handlerFor(transport: SetupTransport): Handler {
  return transport.kind === 'command'
    ? { type: 'command', command: transport.command, timeout: HANDLER_TIMEOUT_S }
    : { type: 'http', url: transport.url, headers: { ...transport.headers }, timeout: HANDLER_TIMEOUT_S };
}

function clone(settings: Record<string, unknown>): Record<string, unknown> {
  return structuredClone(settings);
}

function hooksOf(settings: Record<string, unknown>): Record<string, unknown> {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new TypeError('settings.hooks: expected an object of event → matcher groups');
  }
  return hooks as Record<string, unknown>;
}

/** Strips hookbox's handlers from one event's groups; drops groups left empty by it. */
function stripEvent(groups: unknown, event: string, changes: SetupChange[]): unknown[] {
  if (!Array.isArray(groups)) throw new TypeError(`settings.hooks.${event}: expected an array of matcher groups`);
  const kept: unknown[] = [];
  groups.forEach((group: unknown, index) => {
    const handlers = (group as Group | null)?.hooks;
    if (!Array.isArray(handlers)) {
      kept.push(group);
      return;
    }
    const remaining = handlers.filter((handler) => !isHookboxHandler(handler));
    if (remaining.length === handlers.length) {
      kept.push(group);
      return;
    }
    for (const handler of handlers.filter(isHookboxHandler)) {
      changes.push({ action: 'removed', where: `hooks.${event}[${index}]`, what: describe(handler as Handler) });
    }
    if (remaining.length > 0) kept.push({ ...(group as Group), hooks: remaining });
  });
  return kept;
}

function describe(handler: Handler): string {
  return handler.type === 'command' ? `command ${String(handler.command)}` : `http ${String(handler.url)}`;
}

function apply(settings: Record<string, unknown>, transport: SetupTransport): SetupEdit {
  const next = clone(settings);
  const hooks = { ...hooksOf(next) };
  const changes: SetupChange[] = [];
  const handler = handlerFor(transport);
  for (const { event, matcher, commandOnly } of REGISTERED) {
    if (commandOnly === true && transport.kind !== 'command') {
      const removed: SetupChange[] = [];
      if (hooks[event] === undefined) continue;
      const groups = stripEvent(hooks[event], event, removed);
      changes.push(...removed);
      if (groups.length === 0) delete hooks[event];
      else hooks[event] = groups;
      continue;
    }
    const removed: SetupChange[] = [];
    const groups = stripEvent(hooks[event] ?? [], event, removed);
    const group = { ...(matcher !== undefined && { matcher }), hooks: [handler] };
    const previous = JSON.stringify(hooks[event] ?? null);
    groups.push(group);
    hooks[event] = groups;
    const where = `hooks.${event}[${groups.length - 1}]`;
    if (removed.length === 0) changes.push({ action: 'added', where, what: describe(handler) });
    else if (JSON.stringify(groups) === previous) changes.push({ action: 'unchanged', where, what: describe(handler) });
    else changes.push({ action: 'replaced', where, what: describe(handler) });
  }
  next.hooks = hooks;
  return { settings: next, changes };
}

function remove(settings: Record<string, unknown>): SetupEdit {
  const next = clone(settings);
  if (next.hooks === undefined) return { settings: next, changes: [] };
  const hooks = { ...hooksOf(next) };
  const changes: SetupChange[] = [];
  for (const event of Object.keys(hooks)) {
    const before = changes.length;
    const groups = stripEvent(hooks[event], event, changes);
    if (changes.length === before) continue;
    if (groups.length === 0) delete hooks[event];
    else hooks[event] = groups;
  }
  if (Object.keys(hooks).length === 0) delete next.hooks;
  else next.hooks = hooks;
  return { settings: next, changes };
}

function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.claude', 'settings.json') : path.join(scope.home, '.claude', 'settings.json');
}

function tradeOff(transport: SetupTransport['kind']): string {
  return transport === 'command'
    ? 'command transport: Claude Code runs `hookbox hook claude-code` per event; it asks `hookbox serve` over its socket and, with no server, evaluates the hooks in-process (slower, and hooks that remember across events start fresh each time). Any error it cannot decide on blocks (exit 2): fails closed.'
    : 'http transport: faster (no process per event), but Claude Code treats an http hook it cannot reach, or a non-2xx answer, as a non-blocking error and carries on: with `hookbox serve` down, every tool call, prompt and result goes through unchecked (fails OPEN). Use --transport command where that matters.';
}

/** Claude Code's settings: `.claude/settings.json` of a project, or `~/.claude/settings.json`. */
export const claudeCodeSetup: AgentSetup = {
  settingsPath,
  unsupported: () => undefined,
  apply,
  remove,
  tradeOff,
};
