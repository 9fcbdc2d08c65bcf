import * as z from 'zod';
import { ConfigError } from '../errors.ts';
import { describeIssues } from '../json/index.ts';
import type { SeamId, SessionStartSource } from '../seams/index.ts';
import { convertSourceMatcher, convertToolMatcher } from './matcher.ts';
import { type PermissionsEntry, type RefusedSetting, SettingsSchema, importEnv, importPermissions } from './import-settings.ts';
import { type MissingProgram, checkCommandPrograms } from './program-check.ts';
import { eventRows } from '../agents/bridge-parts.ts';
import { CLAUDE_CODE_SEAM_EVENTS } from '../agents/claude-code/protocol.ts';
import {
  EVENT_FOR_SEAM,
  PROTOCOL_LABEL,
  SEAM_FOR_EVENT,
  TOOL_DEFAULT_TIMEOUT_MS,
  type ToolEventName,
  type ToolProtocol,
  isToolEventName,
} from './protocol.ts';

/** One `hookbox.config.json` entry written by an importer: a shell hook, always marked unsandboxed. */
export interface ShellHookEntry {
  name: string;
  command: string;
  protocol: ToolProtocol;
  unsandboxed: true;
  seams: SeamId[];
  tools?: string[];
  sources?: SessionStartSource[];
  timeoutMs: number;
  failPolicy: 'closed';
  /** The settings file's `env`, and `CLAUDE_PLUGIN_ROOT` for a plugin's hooks. */
  env?: Record<string, string>;
}

/** Where the imported file sits, which fixes what its hooks' variables and relative paths mean. */
export interface ImportContext {
  /** The project the hooks run for: `CLAUDE_PROJECT_DIR` when checking programs, and where `/path` permission rules start. Default: the process cwd. */
  readonly projectDir?: string;
  /** The plugin the file belongs to: `CLAUDE_PLUGIN_ROOT` for its hooks. */
  readonly pluginRoot?: string;
}

/** A program an imported hook needs that was not found when importing. */
export interface MissingHookProgram extends MissingProgram {
  /** The hook entry's name. */
  readonly hook: string;
}

export interface ImportedHook {
  readonly entry: ShellHookEntry;
  readonly event: ToolEventName;
  /** Where the hook was in the source file (`hooks.PreToolUse[0].hooks[1]`). */
  readonly at: string;
  readonly matcher?: string;
  /** What changed or was ignored on the way in. */
  readonly notes: readonly string[];
}

/** Something the source declares that hookbox does not import, and why. Never dropped silently. */
export interface SkippedHook {
  readonly at: string;
  readonly what: string;
  readonly why: string;
}

export interface ImportResult {
  readonly protocol: ToolProtocol;
  /** The file the hooks came from. */
  readonly source: string;
  /** The shell hooks of the operator config to write (`importedConfig` adds the permissions entry). */
  readonly config: { hooks: ShellHookEntry[] };
  /** The settings file's `permissions` as a rule entry, when it has rules hookbox can enforce. */
  readonly permissions?: PermissionsEntry;
  /** Settings not carried over (permission rules, permission fields), with why. */
  readonly refused: readonly RefusedSetting[];
  /** Programs imported hooks start that do not exist (checked from the project directory). */
  readonly missing: readonly MissingHookProgram[];
  readonly imported: readonly ImportedHook[];
  readonly skipped: readonly SkippedHook[];
  /** Notes about the file as a whole. */
  readonly notes: readonly string[];
}

const HandlerSchema = z.looseObject({
  type: z.string(),
  command: z.string().optional(),
  /** Seconds, in both tools. */
  timeout: z.number().positive().optional(),
  /** Codex's alias of `timeout`. */
  timeoutSec: z.number().positive().optional(),
  statusMessage: z.string().optional(),
});
const MatcherGroupSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(HandlerSchema),
});
/** The `hooks` section both tools share: event → matcher groups → handlers. */
const HooksSectionSchema = z.record(z.string(), z.array(MatcherGroupSchema));
const SourceSchema = z.looseObject({
  ...SettingsSchema.shape,
  hooks: HooksSectionSchema.optional(),
  disableAllHooks: z.boolean().optional(),
});

/**
 * Why an event no seam stands for is not imported (a Map: an event named like
 * an Object built-in, `constructor`, finds nothing). Only events outside the
 * agents' protocol tables: tests/unit/bridges-import-hooks.spec.ts fails when
 * a seam comes to stand for one of them, so no reason here outlives its truth.
 */
export const UNSUPPORTED_EVENTS: ReadonlyMap<string, string> = new Map(Object.entries({
  PermissionDenied: 'hookbox has no permission-denied seam: a denied call is a tool result the post-execute hooks see',
  StopFailure: 'hookbox has no seam for a turn that ended on an API error: agent/turn-continuation fires when the model ends a step, not when a request fails',
  PostCompact: 'hookbox has no post-compact seam: agent/session-start with source "compact" fires after a compaction where the agent says so; move the hook to SessionStart with matcher "compact"',
}));

/**
 * What a matcher selects on the events whose matcher is not a tool name nor a
 * session-start source: hookbox's hooks cannot select on these fields, so a
 * hook with a real matcher there is not imported (run on every event, it would
 * fire where its author said it must not).
 */
const FIELD_MATCHERS: ReadonlyMap<string, string> = new Map(Object.entries({
  SubagentStart: 'the subagent type',
  SubagentStop: 'the subagent type',
  Notification: 'the notification type',
  PreCompact: 'the trigger (manual, auto)',
  SessionEnd: 'the end reason',
}));

/**
 * Why a hook on `event` is not imported, from the protocol tables: an event
 * an agent sends for a seam whose hooks get another event (Claude Code's
 * PostToolUseFailure: its hooks are sent PostToolUse), an event no seam
 * stands for (its reason), or an unknown one (the events that are imported).
 */
function whyNotImported(event: string): string {
  const row = eventRows(CLAUDE_CODE_SEAM_EVENTS).find((candidate) => candidate.event === event);
  if (row !== undefined) {
    const first = EVENT_FOR_SEAM[row.seam];
    return `no separate ${event} hook: ${first} hooks decide ${row.seam} for every call, failed ones too; move the hook to ${first}`;
  }
  return UNSUPPORTED_EVENTS.get(event) ?? `not an event of a hookbox seam (the events imported: ${Object.keys(SEAM_FOR_EVENT).join(', ')})`;
}

/** Handler fields with a meaning hookbox does not reproduce (they are reported, not silently ignored). */
const IGNORED_FIELDS: ReadonlyMap<string, string> = new Map(Object.entries({
  async: 'runs synchronously: hookbox runs every hook in order and waits for it',
  once: 'runs on every matching call, not once per session',
  if: 'the "if" filter is not applied: the hook runs on every call its matcher selects',
}));
const KNOWN_FIELDS = new Set(['type', 'command', 'timeout', 'timeoutSec', 'statusMessage']);

/**
 * Converts the `hooks` section of a Claude Code settings file (user, project
 * or local layout, or a plugin's hooks.json) or a Codex hooks.json /
 * config.toml (already parsed) into hookbox shell-hook entries: each event
 * becomes its seam, each matcher a tool matcher, each `command` handler a
 * `command` hook speaking the tool's protocol, unsandboxed, with the tool's
 * timeout (600 s unless set) and failing closed. Everything not imported is
 * listed in `skipped` with the reason.
 *
 * @throws ConfigError naming the source and the JSON path when the hooks section is malformed
 */
export function importToolHooks(protocol: ToolProtocol, source: string, document: unknown, context: ImportContext = {}): ImportResult {
  const parsed = SourceSchema.safeParse(document);
  if (!parsed.success) {
    throw new ConfigError(describeIssues(source, parsed.error));
  }
  const label = PROTOCOL_LABEL[protocol];
  const notes: string[] = [];
  if (parsed.data.hooks === undefined) notes.push(`no "hooks" section: nothing to import`);
  if (parsed.data.disableAllHooks === true) notes.push(`"disableAllHooks": true is set: ${label} runs none of these hooks; hookbox imports them anyway`);

  const projectDir = context.projectDir ?? process.cwd();
  const claude = protocol === 'claude-code';
  const { entry: permissions, refused } = claude ? importPermissions(parsed.data, projectDir) : { refused: [] };
  const settingsEnv = claude ? importEnv(parsed.data) : {};
  const pluginEnv: Record<string, string> = claude && context.pluginRoot !== undefined ? { CLAUDE_PLUGIN_ROOT: context.pluginRoot } : {};
  const missing: MissingHookProgram[] = [];
  const prefix = claude ? 'claude' : 'codex';
  const imported: ImportedHook[] = [];
  const skipped: SkippedHook[] = [];
  const seen = new Map<string, string>();
  const counters = new Map<string, number>();

  for (const [event, groups] of Object.entries(parsed.data.hooks ?? {})) {
    if (!isToolEventName(event)) {
      skipped.push({ at: `hooks.${event}`, what: `event ${event} (${groups.length} matcher group(s))`, why: whyNotImported(event) });
      continue;
    }
    const seam = SEAM_FOR_EVENT[event];
    groups.forEach((group, groupIndex) => {
      const groupAt = `hooks.${event}[${groupIndex}]`;
      const selection = convertMatcher(protocol, event, group.matcher);
      if ('why' in selection) {
        skipped.push({ at: `${groupAt}.matcher`, what: `matcher ${JSON.stringify(group.matcher)} (${group.hooks.length} hook(s))`, why: selection.why });
        return;
      }
      group.hooks.forEach((handler, handlerIndex) => {
        const at = `${groupAt}.hooks[${handlerIndex}]`;
        if (handler.type !== 'command') {
          skipped.push({ at, what: `hook type "${handler.type}"`, why: 'hookbox imports command hooks only (prompt, agent, http and MCP hooks call out of the loop)' });
          return;
        }
        if (handler.command === undefined || handler.command.trim() === '') {
          skipped.push({ at, what: 'command hook without a command', why: 'nothing to run' });
          return;
        }
        const hookNotes = [...selection.notes];
        for (const key of Object.keys(handler)) {
          if (KNOWN_FIELDS.has(key)) continue;
          hookNotes.push(`"${key}" ignored: ${IGNORED_FIELDS.get(key) ?? `not a field hookbox reproduces`}`);
        }
        // A plugin's scripts may read CLAUDE_PLUGIN_ROOT themselves: every hook of the plugin gets it.
        const env: Record<string, string> = { ...settingsEnv, ...pluginEnv };
        hookNotes.push(...variableNotes(protocol, event, handler.command, context));
        const seconds = handler.timeout ?? handler.timeoutSec;
        let timeoutMs = seconds === undefined ? TOOL_DEFAULT_TIMEOUT_MS : Math.round(seconds * 1000);
        if (timeoutMs > TOOL_DEFAULT_TIMEOUT_MS) {
          hookNotes.push(`timeout ${seconds} s capped at hookbox's maximum of ${TOOL_DEFAULT_TIMEOUT_MS / 1000} s`);
          timeoutMs = TOOL_DEFAULT_TIMEOUT_MS;
        }
        timeoutMs = Math.max(timeoutMs, 1);
        const key = JSON.stringify([seam, handler.command, selection.tools, selection.sources]);
        const duplicate = seen.get(key);
        if (duplicate !== undefined) {
          skipped.push({ at, what: `command ${JSON.stringify(handler.command)}`, why: `identical to ${duplicate} (${label} runs identical commands once)` });
          return;
        }
        const count = (counters.get(event) ?? 0) + 1;
        counters.set(event, count);
        const name = `${prefix}-${kebab(event)}-${count}`;
        seen.set(key, name);
        const check = checkCommandPrograms(handler.command, { cwd: projectDir, env: { ...process.env, ...env, CLAUDE_PROJECT_DIR: projectDir } });
        for (const gone of check.missing) {
          missing.push({ hook: name, ...gone });
          hookNotes.push(`cannot run as it stands: ${gone.program}: ${gone.problem}`);
        }
        if (check.unchecked !== undefined) hookNotes.push(`program not checked: ${check.unchecked}`);
        imported.push({
          entry: {
            name,
            command: handler.command,
            protocol,
            unsandboxed: true,
            seams: [seam],
            ...(selection.tools !== undefined && { tools: selection.tools }),
            ...(selection.sources !== undefined && { sources: selection.sources }),
            timeoutMs,
            failPolicy: 'closed',
            ...(Object.keys(env).length > 0 && { env }),
          },
          event,
          at,
          ...(group.matcher !== undefined && { matcher: group.matcher }),
          notes: hookNotes,
        });
      });
    });
  }
  return {
    protocol,
    source,
    config: { hooks: imported.map((hook) => hook.entry) },
    ...(permissions !== undefined && { permissions }),
    refused,
    missing,
    imported,
    skipped,
    notes,
  };
}

/** The operator config an import writes: the permissions rule entry first (it only decides pre-tool calls), then the shell hooks. */
export function importedConfig(result: ImportResult): { hooks: (PermissionsEntry | ShellHookEntry)[] } {
  return { hooks: [...(result.permissions === undefined ? [] : [result.permissions]), ...result.config.hooks] };
}

/** What the command's Claude Code variables will be when it runs, where that differs from Claude Code. */
function variableNotes(protocol: ToolProtocol, event: ToolEventName, command: string, context: ImportContext): string[] {
  const notes: string[] = [];
  if (/PLUGIN_ROOT/.test(command)) {
    notes.push(
      protocol === 'claude-code' && context.pluginRoot !== undefined
        ? `CLAUDE_PLUGIN_ROOT is set to ${context.pluginRoot}`
        : 'CLAUDE_PLUGIN_ROOT is not set: the file is not inside a Claude Code plugin (no .claude-plugin/ or hooks/ folder above it)',
    );
  }
  if (/CLAUDE_ENV_FILE/.test(command) && (protocol !== 'claude-code' || event !== 'SessionStart')) {
    notes.push('CLAUDE_ENV_FILE is set for Claude Code SessionStart hooks only (as Claude Code does)');
  }
  return notes;
}

type Selection = { tools?: string[]; sources?: SessionStartSource[]; notes: string[] } | { why: string };

/** What a group's matcher selects for its event: tools, session-start sources, or nothing to select. */
function convertMatcher(protocol: ToolProtocol, event: ToolEventName, matcher: string | undefined): Selection {
  try {
    if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'PermissionRequest') return convertToolMatcher(protocol, matcher);
    if (event === 'SessionStart') {
      const converted = convertSourceMatcher(matcher);
      if (converted.sources !== undefined && converted.sources.length === 0) {
        return { why: `matches no session-start source (startup, resume, clear, compact)${converted.notes.length > 0 ? `: ${converted.notes.join('; ')}` : ''}` };
      }
      return converted;
    }
  } catch (error) {
    return { why: `not a valid regular expression: ${(error as Error).message}` };
  }
  const ignored = matcher !== undefined && matcher.trim() !== '' && matcher.trim() !== '*';
  const field = FIELD_MATCHERS.get(event);
  if (ignored && field !== undefined) return { why: `${event}'s matcher selects on ${field}, which a hookbox hook cannot select on; without it the hook would run on every ${event}` };
  return { notes: ignored ? [`matcher ${JSON.stringify(matcher)} ignored: ${event} has no matcher (${PROTOCOL_LABEL[protocol]} ignores it too)`] : [] };
}

function kebab(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}
