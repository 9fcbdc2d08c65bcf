import { z } from 'zod';
import { ConfigError } from '../errors.ts';
import { describeIssues } from '../json/index.ts';
import type { SeamId, SessionStartSource } from '../seams/index.ts';
import { convertSourceMatcher, convertToolMatcher } from './matcher.ts';
import {
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
  /** The operator config to write. */
  readonly config: { hooks: ShellHookEntry[] };
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
  hooks: HooksSectionSchema.optional(),
  disableAllHooks: z.boolean().optional(),
});

/** Why an event has no seam. */
const UNSUPPORTED_EVENTS: Readonly<Record<string, string>> = {
  Notification: 'hookbox has no notification seam',
  PermissionRequest: 'an ask goes to the permission prompter, not to hooks; decide it in a PreToolUse hook instead',
  PermissionDenied: 'hookbox has no permission-denied seam',
  PostToolUseFailure: 'no separate failure event: tools/post-execute sees failed results too; move the hook to PostToolUse',
  SubagentStart: 'hookbox has no subagents',
  SubagentStop: 'hookbox has no subagents',
  PreCompact: 'hookbox does not compact context',
  PostCompact: 'hookbox does not compact context',
  SessionEnd: 'hookbox has no session-end seam',
};

/** Handler fields with a meaning hookbox does not reproduce (they are reported, not silently ignored). */
const IGNORED_FIELDS: Readonly<Record<string, string>> = {
  async: 'runs synchronously: hookbox runs every hook in order and waits for it',
  once: 'runs on every matching call, not once per session',
  if: 'the "if" filter is not applied: the hook runs on every call its matcher selects',
};
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
export function importToolHooks(protocol: ToolProtocol, source: string, document: unknown): ImportResult {
  const parsed = SourceSchema.safeParse(document);
  if (!parsed.success) {
    throw new ConfigError(describeIssues(source, parsed.error));
  }
  const label = PROTOCOL_LABEL[protocol];
  const notes: string[] = [];
  if (parsed.data.hooks === undefined) notes.push(`no "hooks" section: nothing to import`);
  if (parsed.data.disableAllHooks === true) notes.push(`"disableAllHooks": true is set: ${label} runs none of these hooks; hookbox imports them anyway`);

  const prefix = protocol === 'claude-code' ? 'claude' : 'codex';
  const imported: ImportedHook[] = [];
  const skipped: SkippedHook[] = [];
  const seen = new Map<string, string>();
  const counters = new Map<string, number>();

  for (const [event, groups] of Object.entries(parsed.data.hooks ?? {})) {
    if (!isToolEventName(event)) {
      skipped.push({ at: `hooks.${event}`, what: `event ${event} (${groups.length} matcher group(s))`, why: UNSUPPORTED_EVENTS[event] ?? 'not one of the five hookbox seams' });
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
          hookNotes.push(`"${key}" ignored: ${IGNORED_FIELDS[key] ?? `not a field hookbox reproduces`}`);
        }
        if (/CLAUDE_PLUGIN_ROOT|CLAUDE_ENV_FILE|PLUGIN_ROOT/.test(handler.command)) {
          hookNotes.push('the command uses a plugin variable (CLAUDE_PLUGIN_ROOT, CLAUDE_ENV_FILE…) that hookbox does not set; only CLAUDE_PROJECT_DIR is set');
        }
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
          },
          event,
          at,
          ...(group.matcher !== undefined && { matcher: group.matcher }),
          notes: hookNotes,
        });
      });
    });
  }
  return { protocol, source, config: { hooks: imported.map((hook) => hook.entry) }, imported, skipped, notes };
}

type Selection = { tools?: string[]; sources?: SessionStartSource[]; notes: string[] } | { why: string };

/** What a group's matcher selects for its event: tools, session-start sources, or nothing to select. */
function convertMatcher(protocol: ToolProtocol, event: ToolEventName, matcher: string | undefined): Selection {
  try {
    if (event === 'PreToolUse' || event === 'PostToolUse') return convertToolMatcher(protocol, matcher);
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
  return { notes: ignored ? [`matcher ${JSON.stringify(matcher)} ignored: ${event} has no matcher (${PROTOCOL_LABEL[protocol]} ignores it too)`] : [] };
}

function kebab(event: string): string {
  return event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}
