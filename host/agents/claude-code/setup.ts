import path from 'node:path';
import type { AgentSetup, SetupOptions, SetupScope, SetupTransport } from '../agent-bridge.ts';
import { type HookGroupsLayout, applyHookGroups, removeHookGroups } from '../hook-groups.ts';

/**
 * Claude Code's own fail-closed switch: a handler that times out, cannot
 * start or exits with an error other than 2 counts as a block (measured with
 * 2.1.328: a PreToolUse command hook past its timeout blocked the call with
 * it, and let it run without). Written on the events whose closed form is a
 * block; Claude Code ignores it on Stop, and blocking SessionStart is no
 * safe default.
 */
const BLOCK_ON_FAILURE = { onFailure: 'block' } as const;

/**
 * The events hookbox registers in Claude Code, with a tool matcher where the
 * event has one. Claude Code 2.1.328 runs SessionStart hooks of type
 * `command` only (measured: an http SessionStart hook is never called), so
 * the http transport leaves it out and the server fires session-start itself
 * on the session's first event.
 */
const REGISTERED: readonly { readonly event: string; readonly matcher?: string; readonly commandOnly?: boolean; readonly extra?: Readonly<Record<string, unknown>> }[] = [
  { event: 'SessionStart', commandOnly: true },
  { event: 'UserPromptSubmit', extra: BLOCK_ON_FAILURE },
  { event: 'PreToolUse', matcher: '*', extra: BLOCK_ON_FAILURE },
  { event: 'PostToolUse', matcher: '*', extra: BLOCK_ON_FAILURE },
  { event: 'PostToolUseFailure', matcher: '*', extra: BLOCK_ON_FAILURE },
  { event: 'Stop' },
];

/** Seconds Claude Code waits for hookbox's answer when the operator config gives no figure. */
const DEFAULT_TIMEOUT_S = 30;

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
    return /hookbox\S*\s+hook\s+claude-code(\s|$)/.test(words) || /\/hookbox-hook\.(cjs|sh)\s+claude-code(\s|$)/.test(words);
  }
  if (type === 'http' && typeof url === 'string') return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/hooks\/claude-code$/.test(url);
  return false;
}

function handlerFor(transport: SetupTransport, options?: SetupOptions): Handler {
  // Above the client's own deadline (answer-deadline.ts), so the client answers closed first.
  const timeout = options?.answerTimeoutMs === undefined ? DEFAULT_TIMEOUT_S : Math.ceil(options.answerTimeoutMs / 1000);
  return transport.kind === 'command'
    ? { type: 'command', command: transport.command, timeout }
    : { type: 'http', url: transport.url, headers: { ...transport.headers }, timeout };
}

function describe(handler: Handler): string {
  return handler.type === 'command' ? `command ${String(handler.command)}` : `http ${String(handler.url)}`;
}

/** The layout for one transport: an http setup registers no command-only event (and takes hookbox's out of it). */
function layoutFor(transport: SetupTransport['kind']): HookGroupsLayout {
  return {
    events: REGISTERED.map(({ event, matcher, commandOnly, extra }) => ({
      event,
      ...(matcher !== undefined && { matcher }),
      ...(extra !== undefined && { extra }),
      stripOnly: commandOnly === true && transport !== 'command',
    })),
    isOurs: isHookboxHandler,
    describe,
    hooksPath: 'settings.hooks',
  };
}

function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.claude', 'settings.json') : path.join(scope.home, '.claude', 'settings.json');
}

/** A project's uncommitted settings (Claude Code reads hooks from it too): where the http token goes. */
function localSettingsPath(scope: SetupScope): string | undefined {
  return scope.kind === 'project' ? path.join(scope.dir, '.claude', 'settings.local.json') : undefined;
}

function tradeOff(transport: SetupTransport['kind']): string {
  return transport === 'command'
    ? 'command transport: Claude Code runs `hookbox hook claude-code` per event; it asks `hookbox serve` over its socket and, with no server, evaluates the hooks in-process (slower, and hooks that remember across events start fresh each time). Past its deadline, or on any error, the client answers closed (deny, block, withhold), and `onFailure: "block"` makes Claude Code block when the client itself fails: fails closed.'
    : 'http transport: faster (no process per event); the token is written to .claude/settings.local.json (not committed), never to settings.json. With `hookbox serve` down, `onFailure: "block"` makes Claude Code refuse tool calls, prompts and results (fails closed) — but a port squatter (another local process on the port) gets every event and the token, and its "allow" is obeyed. Use --transport command where that matters.';
}

/** Claude Code's settings: `.claude/settings.json` of a project, or `~/.claude/settings.json`. */
export const claudeCodeSetup: AgentSetup = {
  detect: { folders: ['.claude'], commands: ['claude'] },
  settingsPath,
  localSettingsPath,
  unsupported: () => undefined,
  apply: (settings, transport, options) => applyHookGroups(layoutFor(transport.kind), settings, handlerFor(transport, options)),
  remove: (settings) => removeHookGroups(layoutFor('command'), settings),
  tradeOff,
};
