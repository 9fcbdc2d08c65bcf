import path from 'node:path';
import type { AgentSetup, SetupOptions, SetupScope, SetupTransport } from '../agent-bridge.ts';
import { type HookGroupsLayout, applyHookGroups, handlerPositions, removeHookGroups } from '../hook-groups.ts';
import type { SystemSetup } from '../system-setup.ts';

/**
 * Claude Code's own fail-closed switch: a handler that times out, cannot
 * start or exits with an error other than 2 counts as a block (measured with
 * 2.1.328: a PreToolUse command hook past its timeout blocked the call with
 * it, and let it run without). Written on the events whose closed form is a
 * block; Claude Code ignores it on Stop, and blocking SessionStart is no
 * safe default. Agents of the format that have no such switch are not sent it.
 */
const BLOCK_ON_FAILURE = { onFailure: 'block' } as const;

/** One event setup registers, with a tool matcher where the event has one. */
interface RegisteredEvent {
  readonly event: string;
  readonly matcher?: string;
  /** Run by the agent for command hooks only: an http setup leaves it out (the server fires session-start itself). */
  readonly commandOnly?: boolean;
  /** Whether the agent's fail-closed switch (`onFailure: "block"`) goes on it. */
  readonly blockOnFailure?: boolean;
  /** A lifecycle event (#51): registered only where the agent's `lifecycle` list names it. */
  readonly lifecycle?: boolean;
}

/** The Claude format's lifecycle events (#51) an agent may send. */
export type ClaudeFormatLifecycleEvent = 'SessionEnd' | 'PreCompact' | 'SubagentStart' | 'SubagentStop' | 'PermissionRequest' | 'Notification';

/**
 * The events hookbox registers in an agent of the Claude format. Claude Code
 * 2.1.328 runs SessionStart hooks of type `command` only (measured: an http
 * SessionStart hook is never called). Never an empty matcher: Copilot CLI,
 * which reads `.claude/settings.json`, refuses the whole file for one.
 */
const REGISTERED: readonly RegisteredEvent[] = [
  { event: 'SessionStart', commandOnly: true },
  { event: 'UserPromptSubmit', blockOnFailure: true },
  { event: 'PreToolUse', matcher: '*', blockOnFailure: true },
  { event: 'PostToolUse', matcher: '*', blockOnFailure: true },
  { event: 'PostToolUseFailure', matcher: '*', blockOnFailure: true },
  { event: 'Stop' },
  // The lifecycle events (#51), each registered only for the agents that send it (`lifecycle`).
  { event: 'SessionEnd', lifecycle: true },
  { event: 'PreCompact', lifecycle: true },
  { event: 'SubagentStart', lifecycle: true },
  { event: 'SubagentStop', lifecycle: true },
  // A gate like PreToolUse: Claude Code's own switch refuses the call when hookbox cannot answer.
  { event: 'PermissionRequest', matcher: '*', blockOnFailure: true, lifecycle: true },
  { event: 'Notification', lifecycle: true },
];

/** Seconds the agent waits for hookbox's answer when the operator config gives no figure. */
const DEFAULT_TIMEOUT_S = 30;

/** What sets one agent's settings apart within the format. */
export interface ClaudeFormatSettings {
  /** The registered agent name (`hookbox hook <agent>`). */
  readonly agent: string;
  /** How the agent is named in messages. */
  readonly label: string;
  /** The settings folder, in a project and in the home folder (`.claude`). */
  readonly folder: string;
  /** The commands on PATH that show the agent is installed (`claude`), for setup and doctor with no agent named. */
  readonly commands: readonly string[];
  /** The lifecycle events the agent sends (in its binary: names it reads in its settings), which setup registers for it. */
  readonly lifecycle: readonly ClaudeFormatLifecycleEvent[];
  /** The agent honours `onFailure: "block"` (Claude Code). */
  readonly blockOnFailure: boolean;
  /** The agent runs http hooks; else the reason it does not (for `setup --transport http`). */
  readonly http: true | string;
  /** A project's uncommitted settings file in `folder` (Claude Code's `settings.local.json`), where the http token goes. */
  readonly localFile?: string;
  /** The agent reads `<folder>/settings.json` only where it starts (measured); what that means, for setup and doctor. */
  readonly startFolderOnly?: string;
  /** What setup prints about each transport. */
  tradeOff(transport: SetupTransport['kind']): string;
  /** The agent's machine-wide scope, given its own settings editing (`AgentSetup.system`). */
  system(own: Pick<AgentSetup, 'apply' | 'remove'>): SystemSetup;
}

type Handler = Record<string, unknown>;

/**
 * hookbox's own handlers: a command running `hookbox hook claude-code` (or
 * `node …/hookbox-hook.cjs claude-code`, what setup writes), or an
 * http hook on a loopback `/hooks/claude-code` URL. Only these are replaced
 * or removed; everything else in the settings is the user's.
 */
export function isHookboxHandler(handler: unknown): boolean {
  return isHookboxHandlerOf('claude-code', handler);
}

/** `isHookboxHandler` for one agent of the format (`hookbox hook <agent>`, `/hooks/<agent>`); `agent` is a registered name (`[a-z0-9-]`). */
export function isHookboxHandlerOf(agent: string, handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, command, url } = handler as Handler;
  if (type === 'command' && typeof command === 'string') {
    const words = command.replace(/['"]/g, '');
    return new RegExp(`hookbox\\S*\\s+hook\\s+${agent}(\\s|$)`).test(words) || new RegExp(`/(hookbox-hook\\.(cjs|sh)|native/[\\w-]+/hookbox-hook)\\s+${agent}(\\s|$)`).test(words);
  }
  if (type === 'http' && typeof url === 'string') return new RegExp(`^http://(127\\.0\\.0\\.1|localhost|\\[::1\\]):\\d+/hooks/${agent}$`).test(url);
  return false;
}

/**
 * The user-level locator's handler for one agent: a command hook whose `sh -c`
 * script has `hookbox-locate <agent>` as its first words after the script
 * (host/cli/setup-locator.ts). Never one of `isHookboxHandlerOf`'s: a user-wide
 * setup and the locator are edited apart.
 */
export function isLocatorHandlerOf(agent: string, handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, command } = handler as Handler;
  return type === 'command' && typeof command === 'string' && new RegExp(`^sh -c '[^']*' hookbox-locate ${agent}( |$)`).test(command);
}

function handlerFor(transport: SetupTransport, options?: SetupOptions): Handler {
  // Above the client's own deadline (answer-deadline.ts), so the client answers closed first.
  const timeout = options?.answerTimeoutMs === undefined ? DEFAULT_TIMEOUT_S : Math.ceil(options.answerTimeoutMs / 1000);
  if (transport.kind === 'plugin') throw new TypeError('a Claude-format agent runs command or http hooks only');
  return transport.kind === 'command'
    ? { type: 'command', command: transport.command, timeout }
    : { type: 'http', url: transport.url, headers: { ...transport.headers }, timeout };
}

function describe(handler: Handler): string {
  return handler.type === 'command' ? `command ${String(handler.command)}` : `http ${String(handler.url)}`;
}

/** The events setup registers in one agent: the format's own, and the lifecycle events the agent sends. */
function registered(spec: ClaudeFormatSettings): readonly RegisteredEvent[] {
  return REGISTERED.filter((row) => row.lifecycle !== true || (spec.lifecycle as readonly string[]).includes(row.event));
}

/** The layout for one transport: an http setup registers no command-only event (and takes hookbox's out of it). */
function layoutFor(spec: ClaudeFormatSettings, transport: SetupTransport['kind']): HookGroupsLayout {
  return {
    events: registered(spec).map(({ event, matcher, commandOnly, blockOnFailure }) => ({
      event,
      ...(matcher !== undefined && { matcher }),
      ...(blockOnFailure === true && spec.blockOnFailure && { extra: BLOCK_ON_FAILURE }),
      stripOnly: commandOnly === true && transport !== 'command',
    })),
    isOurs: (handler) => isHookboxHandlerOf(spec.agent, handler),
    describe,
    hooksPath: 'settings.hooks',
  };
}

/** The locator's layout: the same events and fail-closed switch as hookbox's project entries, recognised as the locator's. */
function locatorLayout(spec: ClaudeFormatSettings): HookGroupsLayout {
  return { ...layoutFor(spec, 'command'), isOurs: (handler) => isLocatorHandlerOf(spec.agent, handler), describe: () => `the hookbox locator (${spec.agent})` };
}

/** An agent's settings of the Claude format: `<folder>/settings.json` of a project, or of the home folder. */
export function claudeFormatSetup(spec: ClaudeFormatSettings): AgentSetup {
  const { localFile } = spec;
  const apply: AgentSetup['apply'] = (settings, transport, options) => {
    if (transport.kind === 'plugin' || (transport.kind === 'http' && spec.http !== true)) throw new TypeError(`${spec.label} runs command hooks only`);
    return applyHookGroups(layoutFor(spec, transport.kind), settings, handlerFor(transport, options));
  };
  const remove: AgentSetup['remove'] = (settings) => removeHookGroups(layoutFor(spec, 'command'), settings);
  return {
    detect: { folders: [spec.folder], commands: spec.commands },
    settingsPath: (scope: SetupScope) => path.join(scope.kind === 'project' ? scope.dir : scope.home, spec.folder, 'settings.json'),
    // Both files at either scope: Claude Code reads a `settings.local.json` (its `disableAllHooks`) wherever it finds one.
    protectedPaths: (scope: SetupScope) =>
      ['settings.json', ...(localFile !== undefined ? [localFile] : [])].map((file) => ({ path: path.join(scope.kind === 'project' ? scope.dir : scope.home, spec.folder, file) })),
    ...(localFile !== undefined && {
      localSettingsPath: (scope: SetupScope) => (scope.kind === 'project' ? path.join(scope.dir, spec.folder, localFile) : undefined),
    }),
    ...(spec.startFolderOnly !== undefined && { startFolderOnly: spec.startFolderOnly }),
    ...(spec.startFolderOnly !== undefined && {
      locator: {
        apply: (settings: Record<string, unknown>, command: string, timeoutS: number) => applyHookGroups(locatorLayout(spec), settings, { type: 'command', command, timeout: timeoutS }),
        remove: (settings: Record<string, unknown>) => removeHookGroups(locatorLayout(spec), settings),
        command: (settings: Record<string, unknown>) => {
          const found = handlerPositions(settings).find(({ handler }) => isLocatorHandlerOf(spec.agent, handler));
          return found === undefined ? undefined : (found.handler.command as string);
        },
      },
    }),
    ...(spec.http === true && { commandOnlyEvents: registered(spec).filter((row) => row.commandOnly === true).map((row) => row.event) }),
    unsupported: (transport) =>
      transport === 'plugin' ? `${spec.label} has no plugin hooks (it runs command hooks); use --transport command` : transport === 'http' && spec.http !== true ? spec.http : undefined,
    apply,
    remove,
    system: spec.system({ apply, remove }),
    tradeOff: (transport) => spec.tradeOff(transport),
  };
}

