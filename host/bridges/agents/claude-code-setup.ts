import path from 'node:path';
import type { AgentSetup, SetupScope, SetupTransport } from './agent-bridge.ts';
import { type HookGroupsLayout, applyHookGroups, removeHookGroups } from './hook-groups.ts';

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

function describe(handler: Handler): string {
  return handler.type === 'command' ? `command ${String(handler.command)}` : `http ${String(handler.url)}`;
}

/** The layout for one transport: an http setup registers no command-only event (and takes hookbox's out of it). */
function layoutFor(transport: SetupTransport['kind']): HookGroupsLayout {
  return {
    events: REGISTERED.map(({ event, matcher, commandOnly }) => ({ event, ...(matcher !== undefined && { matcher }), stripOnly: commandOnly === true && transport !== 'command' })),
    isOurs: isHookboxHandler,
    describe,
    hooksPath: 'settings.hooks',
  };
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
  apply: (settings, transport) => applyHookGroups(layoutFor(transport.kind), settings, handlerFor(transport)),
  remove: (settings) => removeHookGroups(layoutFor('command'), settings),
  tradeOff,
};
