import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { codexSystem } from './system.ts';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import type { AgentSetup, DoctorFinding, SetupChange, SetupFinish, SetupFinishContext, SetupOptions, SetupScope, SetupTransport, SetupVerifyContext } from '../agent-bridge.ts';
import { codexEventLabel, codexHookHash, codexHookKey } from './trust.ts';
import { type HandlerPosition, type HookGroupsLayout, applyHookGroups, handlerPositions, isHookboxCommand, removeHookGroups } from '../hook-groups.ts';
import { editTomlTables } from '../toml-tables.ts';

/** Seconds Codex gives hookbox's answer when the operator config gives no figure. */
const DEFAULT_TIMEOUT_S = 30;

const LAYOUT: HookGroupsLayout = {
  // No matcher: every tool (Codex's matcher is a regex over its tool names; absent = all).
  events: [
    { event: 'SessionStart' },
    { event: 'UserPromptSubmit' },
    { event: 'PreToolUse' },
    { event: 'PostToolUse' },
    { event: 'Stop' },
    // The lifecycle events (#51) Codex 0.169.0 has (its trust labels): SessionEnd and PreCompact measured headless.
    { event: 'SessionEnd' },
    { event: 'PreCompact' },
    { event: 'SubagentStart' },
    { event: 'SubagentStop' },
    { event: 'PermissionRequest' },
  ],
  isOurs: (handler) => typeof handler === 'object' && handler !== null && isHookboxCommand((handler as Record<string, unknown>).command, 'codex'),
  describe: (handler) => `command ${String(handler.command)} (timeout ${String(handler.timeout)} s)`,
};

/** `$CODEX_HOME`, else `~/.codex`: where Codex keeps the user's `config.toml` (and trust). */
export function codexHome(home: string): string {
  return process.env.CODEX_HOME !== undefined && process.env.CODEX_HOME !== '' ? path.resolve(process.env.CODEX_HOME) : path.join(home, '.codex');
}

/** The user config Codex records trust in, for a scope. */
export function codexUserConfig(scope: SetupScope): string {
  return path.join(codexHome(scope.kind === 'user' ? scope.home : homedir()), 'config.toml');
}

/**
 * Why `hooks.json` and not `[hooks]` in `config.toml`: it is JSON (merged
 * and taken apart exactly, with the user's other hooks untouched, like
 * Claude Code's and Gemini CLI's settings), it exists per project
 * (`.codex/hooks.json`) and per user (`$CODEX_HOME/hooks.json`), and Codex
 * hashes a handler the same way from either file. Only trust must go to
 * `config.toml`; that edit is made on the text, keeping the user's comments.
 */
function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.codex', 'hooks.json') : path.join(codexHome(scope.home), 'hooks.json');
}

function apply(settings: Record<string, unknown>, transport: SetupTransport, options?: SetupOptions) {
  if (transport.kind !== 'command') throw new TypeError('Codex runs command hooks only');
  const timeout = Math.ceil((options?.answerTimeoutMs ?? DEFAULT_TIMEOUT_S * 1000) / 1000);
  return applyHookGroups(LAYOUT, settings, { type: 'command', command: transport.command, timeout });
}

function ours(positions: readonly HandlerPosition[]): HandlerPosition[] {
  return positions.filter((position) => LAYOUT.isOurs(position.handler));
}

/**
 * The trust Codex needs for each of hookbox's handlers in these settings: key → hash. A handler
 * under an event Codex does not run needs none (and has no key to record it under).
 */
export function codexTrustFor(settingsFile: string, settings: Record<string, unknown>): Map<string, string> {
  const trust = new Map<string, string>();
  for (const position of ours(handlerPositions(settings))) {
    if (codexEventLabel(position.event) === undefined) continue;
    const handler = position.handler;
    const timeout = typeof handler.timeout === 'number' ? handler.timeout : typeof handler.timeoutSec === 'number' ? handler.timeoutSec : undefined;
    trust.set(
      codexHookKey(settingsFile, position.event, position.group, position.index),
      codexHookHash(position.event, position.matcher, { command: String(handler.command), ...(timeout !== undefined && { timeout }) }),
    );
  }
  return trust;
}

/**
 * The user's handlers whose trust key moves when hookbox's are taken out
 * (a handler after one of ours in the same group, a group after ours):
 * old key → new key, so their trust moves with them.
 */
function movedUserKeys(file: string, before: Record<string, unknown>, after: Record<string, unknown>): Map<string, string> {
  const moved = new Map<string, string>();
  const theirs = (settings: Record<string, unknown>) => handlerPositions(settings).filter((p) => !LAYOUT.isOurs(p.handler));
  const old = theirs(before);
  const now = theirs(after);
  for (const event of new Set(old.map((p) => p.event))) {
    const a = old.filter((p) => p.event === event);
    const b = now.filter((p) => p.event === event);
    a.forEach((position, i) => {
      const next = b[i];
      if (next === undefined || codexEventLabel(event) === undefined) return;
      const from = codexHookKey(file, event, position.group, position.index);
      const to = codexHookKey(file, event, next.group, next.index);
      if (from !== to) moved.set(from, to);
    });
  }
  return moved;
}

/** Is `dir` a trusted project in this Codex config text? */
export function codexProjectTrusted(configText: string, dir: string): boolean {
  const config = parse(configText) as { projects?: Record<string, { trust_level?: unknown }> };
  return config.projects?.[dir]?.trust_level === 'trusted';
}

/** The user's Codex `[hooks.state]` table. */
export function codexHookStates(configText: string): Record<string, { trusted_hash?: unknown; enabled?: unknown }> {
  const config = parse(configText) as { hooks?: { state?: Record<string, { trusted_hash?: unknown; enabled?: unknown }> } };
  return config.hooks?.state ?? {};
}

/**
 * Records Codex's trust for exactly hookbox's handlers (and drops it for
 * the ones taken out), moves the trust of user handlers whose position
 * changed, and — for a project — says how to trust the folder when it is
 * not (trusting a whole project is the user's call, not setup's).
 */
function finish(context: SetupFinishContext): SetupFinish {
  const configFile = codexUserConfig(context.scope);
  const text = existsSync(configFile) ? readFileSync(configFile, 'utf8') : '';
  const old = codexTrustFor(context.settingsFile, context.before);
  const now = context.removing ? new Map<string, string>() : codexTrustFor(context.settingsFile, context.after);
  const moved = movedUserKeys(context.settingsFile, context.before, context.after);
  const states = codexHookStates(text);
  const changes: SetupChange[] = [];
  const stale = [...old.keys()].filter((key) => !now.has(key) && Object.hasOwn(states, key));
  for (const key of stale) changes.push({ action: 'removed', where: `${configFile} [hooks.state."${key}"]`, what: 'trust for a hookbox handler taken out' });
  const rename = [...moved].filter(([from]) => Object.hasOwn(states, from)).map(([from, to]) => ({ from: ['hooks', 'state', from], to: ['hooks', 'state', to] }));
  for (const { from, to } of rename) changes.push({ action: 'replaced', where: `${configFile} [hooks.state."${from[2]}"]`, what: `moved to "${to[2]}" (your handler moved)` });
  const set = [...now].filter(([key, hash]) => states[key]?.trusted_hash !== hash).map(([key, hash]) => ({ path: ['hooks', 'state', key], values: { trusted_hash: hash } }));
  for (const table of set) changes.push({ action: 'added', where: `${configFile} [hooks.state."${table.path[2]}"]`, what: `trusted_hash ${table.values.trusted_hash}` });
  if (stale.length + rename.length + set.length > 0) {
    let next: string;
    try {
      next = editTomlTables(text, { remove: stale.map((key) => ['hooks', 'state', key]), rename, set });
    } catch (error) {
      throw new TypeError(
        `${configFile}: could not record hook trust without breaking the file (${(error as Error).message}); trust hookbox's hooks in Codex instead (/hooks in the TUI)`,
      );
    }
    mkdirSync(path.dirname(configFile), { recursive: true });
    const temp = `${configFile}.hookbox-${process.pid}.tmp`;
    writeFileSync(temp, next, { mode: 0o600 });
    renameSync(temp, configFile);
  }
  const notes: string[] = [];
  if (!context.removing && context.scope.kind === 'project' && !codexProjectTrusted(readIfExists(configFile), context.scope.dir)) {
    notes.push(
      `Codex runs a project's .codex/ hooks only in a trusted project, and ${context.scope.dir} is not trusted yet: open Codex there once and trust it, or add to ${configFile}:\n  [projects.${JSON.stringify(context.scope.dir)}]\n  trust_level = "trusted"`,
    );
  }
  return { changes, notes };
}

function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** `hookbox doctor codex`: each hookbox handler trusted with its current hash and enabled; a project trusted. */
function verify(context: SetupVerifyContext): DoctorFinding[] {
  const configFile = codexUserConfig(context.scope);
  let text: string;
  try {
    text = readIfExists(configFile);
    parse(text);
  } catch (error) {
    return [{ ok: false, what: `${configFile} does not parse (${(error as Error).message})`, fix: `fix the TOML in ${configFile}; Codex will not start with it either` }];
  }
  const states = codexHookStates(text);
  const setupAgain = `hookbox setup codex ${context.scope.kind === 'project' ? `--project ${context.scope.dir}` : '--user'} --config <your hookbox.config.json>`;
  const findings: DoctorFinding[] = [];
  for (const [key, hash] of codexTrustFor(context.settingsFile, context.settings)) {
    const state = states[key];
    if (state?.enabled === false) findings.push({ ok: false, what: `Codex hook ${key} is disabled in ${configFile}`, fix: `remove "enabled = false" from [hooks.state."${key}"] (or enable it in Codex's /hooks)` });
    else if (state?.trusted_hash === undefined) findings.push({ ok: false, what: `Codex hook ${key} is not trusted: Codex skips it silently`, fix: setupAgain });
    else if (state.trusted_hash !== hash) findings.push({ ok: false, what: `Codex hook ${key} changed since it was trusted (trusted ${String(state.trusted_hash)}, now ${hash}): Codex skips it silently`, fix: setupAgain });
    else findings.push({ ok: true, what: `Codex hook ${key} trusted` });
  }
  if (context.scope.kind === 'project') {
    const dir = context.scope.dir;
    findings.push(
      codexProjectTrusted(text, dir)
        ? { ok: true, what: `project ${dir} trusted in ${configFile}` }
        : { ok: false, what: `project ${dir} is not trusted: Codex ignores its .codex/hooks.json`, fix: `open Codex in ${dir} once and trust it, or add to ${configFile}: [projects.${JSON.stringify(dir)}] trust_level = "trusted"` },
    );
  }
  return findings;
}

function tradeOff(): string {
  return 'Codex runs `hookbox hook codex` per event (it has no http hooks); the client asks `hookbox serve` over its socket and, with no server, decides in-process. Anything it cannot decide is answered fail-closed. Codex skips untrusted hooks silently: setup recorded trust for hookbox\'s entries in config.toml; `hookbox doctor codex` checks it.';
}

/** Codex's hooks: `.codex/hooks.json` of a project, or `$CODEX_HOME/hooks.json`; trust in `$CODEX_HOME/config.toml`. */
export const codexSetup: AgentSetup = {
  detect: { folders: ['.codex'], commands: ['codex'] },
  settingsPath,
  // The hooks file, the project's config.toml (hooks can sit there too) and the user's, which records hook trust.
  protectedPaths: (scope) => [
    { path: settingsPath(scope) },
    ...(scope.kind === 'project' ? [{ path: path.join(scope.dir, '.codex', 'config.toml') }] : []),
    { path: codexUserConfig(scope) },
  ],
  unsupported: (transport) => (transport === 'command' ? undefined : `Codex has no ${transport} hooks (command, mcp_tool, prompt and agent only); use --transport command`),
  apply,
  remove: (settings) => removeHookGroups(LAYOUT, settings),
  system: codexSystem({ apply }),
  tradeOff,
  finish,
  verify,
};
