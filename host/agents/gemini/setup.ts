import { existsSync, readFileSync } from 'node:fs';
import { geminiSystem } from './system.ts';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AgentSetup, DoctorFinding, SetupFinish, SetupFinishContext, SetupOptions, SetupScope, SetupTransport, SetupVerifyContext } from '../agent-bridge.ts';
import { type HookGroupsLayout, applyHookGroups, isHookboxCommand, removeHookGroups } from '../hook-groups.ts';

/** Milliseconds Gemini CLI gives hookbox's answer when the operator config gives no figure. */
const DEFAULT_TIMEOUT_MS = 30_000;

const LAYOUT: HookGroupsLayout = {
  // No matcher: every tool.
  events: [
    { event: 'SessionStart' },
    { event: 'BeforeAgent' },
    { event: 'BeforeTool' },
    { event: 'AfterTool' },
    { event: 'AfterAgent' },
    // The lifecycle events (#51) Gemini CLI 0.61.0 has: SessionEnd and PreCompress measured headless.
    { event: 'SessionEnd' },
    { event: 'PreCompress' },
    { event: 'Notification' },
  ],
  isOurs: (handler) => typeof handler === 'object' && handler !== null && isHookboxCommand((handler as Record<string, unknown>).command, 'gemini'),
  describe: (handler) => `command ${String(handler.command)} (timeout ${String(handler.timeout)} ms)`,
};

/** `$GEMINI_CLI_HOME`, else the home folder: Gemini CLI keeps `.gemini/` in it. */
export function geminiHome(home: string): string {
  const env = process.env.GEMINI_CLI_HOME;
  return env !== undefined && env !== '' ? path.resolve(env) : home;
}

function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.gemini', 'settings.json') : path.join(geminiHome(scope.home), '.gemini', 'settings.json');
}

function apply(settings: Record<string, unknown>, transport: SetupTransport, options?: SetupOptions) {
  if (transport.kind !== 'command') throw new TypeError('Gemini CLI runs command hooks only');
  // Gemini's hook timeout is in milliseconds.
  const timeout = options?.answerTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  return applyHookGroups(LAYOUT, settings, { type: 'command', name: 'hookbox', command: transport.command, timeout });
}

/** The user's `trustedFolders.json` (folder → `TRUST_FOLDER` | `TRUST_PARENT` | `DO_NOT_TRUST`). */
export function geminiTrustedFoldersFile(): string {
  return path.join(geminiHome(homedir()), '.gemini', 'trustedFolders.json');
}

/** Does Gemini CLI's folder-trust list trust `dir` (itself, or through a parent)? */
export function geminiFolderTrusted(dir: string): boolean {
  const file = geminiTrustedFoldersFile();
  if (!existsSync(file)) return false;
  let rules: unknown;
  try {
    rules = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (typeof rules !== 'object' || rules === null) return false;
  let best: { length: number; level: unknown } | undefined;
  for (const [rule, level] of Object.entries(rules as Record<string, unknown>)) {
    const root = level === 'TRUST_PARENT' ? path.dirname(rule) : rule;
    const inside = dir === root || dir.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
    if (inside && (best === undefined || rule.length > best.length)) best = { length: rule.length, level };
  }
  return best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT';
}

/**
 * Gemini CLI loads settings hooks only in a trusted workspace: headless it
 * refuses to start in an untrusted folder (exit 55) unless
 * `GEMINI_CLI_TRUST_WORKSPACE=true`; interactive, it asks. Trusting a folder
 * is the user's call; setup says how when the project is not trusted.
 */
function finish(context: SetupFinishContext): SetupFinish {
  if (context.removing || context.scope.kind !== 'project' || geminiFolderTrusted(context.scope.dir)) return { changes: [], notes: [] };
  return {
    changes: [],
    notes: [
      `Gemini CLI runs a project's hooks only in a trusted folder, and ${context.scope.dir} is not in ${geminiTrustedFoldersFile()}: open gemini there once and trust it, or add "${context.scope.dir}": "TRUST_FOLDER" to that file (headless runs may set GEMINI_CLI_TRUST_WORKSPACE=true instead)`,
    ],
  };
}

/** `hookbox doctor gemini`: a project's folder trusted (Gemini loads no hooks in an untrusted one). */
function verify(context: SetupVerifyContext): DoctorFinding[] {
  if (context.scope.kind !== 'project') return [];
  const dir = context.scope.dir;
  if (geminiFolderTrusted(dir)) return [{ ok: true, what: `folder ${dir} trusted in ${geminiTrustedFoldersFile()}` }];
  if (process.env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return [{ ok: true, what: `folder ${dir} trusted through GEMINI_CLI_TRUST_WORKSPACE=true (this environment only)` }];
  return [
    {
      ok: false,
      what: `folder ${dir} is not trusted: Gemini CLI loads no hooks there (headless, it refuses to start)`,
      fix: `open gemini in ${dir} once and trust it, or add "${dir}": "TRUST_FOLDER" to ${geminiTrustedFoldersFile()}`,
    },
  ];
}

function tradeOff(): string {
  return 'Gemini CLI runs `hookbox hook gemini` per event (it has no http hooks); the client asks `hookbox serve` over its socket and, with no server, decides in-process. Anything it cannot decide is answered fail-closed; the timeout written (ms) is above the client\'s own worst case, because Gemini lets a timed-out hook\'s event through.';
}

/** Gemini CLI's hooks: `.gemini/settings.json` of a project, or the user's (`$GEMINI_CLI_HOME/.gemini/settings.json`). */
export const geminiSetup: AgentSetup = {
  detect: { folders: ['.gemini'], commands: ['gemini'] },
  settingsPath,
  // The settings and the folder-trust list (an untrusted workspace runs no project hooks).
  protectedPaths: (scope) => [{ path: settingsPath(scope) }, ...(scope.kind === 'user' ? [{ path: path.join(geminiHome(scope.home), '.gemini', 'trustedFolders.json') }] : [])],
  unsupported: (transport) => (transport === 'command' ? undefined : `Gemini CLI has no ${transport} hooks (command only); use --transport command`),
  apply,
  remove: (settings) => removeHookGroups(LAYOUT, settings),
  system: geminiSystem({ apply, remove: (settings) => removeHookGroups(LAYOUT, settings) }),
  tradeOff,
  finish,
  verify,
};
