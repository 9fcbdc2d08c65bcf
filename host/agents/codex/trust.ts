import { createHash } from 'node:crypto';

/**
 * How Codex (0.169.x) decides that a hook from a `hooks.json` may run. It
 * skips an untrusted hook silently, so `hookbox setup codex` records trust
 * for exactly its own handlers, the way Codex itself does when a person
 * approves a hook: in the user's `config.toml`,
 *
 * ```toml
 * [hooks.state."<absolute hooks.json path>:<event_label>:<group index>:<handler index>"]
 * trusted_hash = "sha256:<hex>"
 * ```
 *
 * The hash is over the handler's normalized identity, not the file text:
 * `{event_name, matcher?, hooks: [{type: "command", command, timeout, async}]}`
 * (timeout in seconds, defaulted to 600; `async` always present; the matcher
 * left out for UserPromptSubmit and Stop, which take none), serialized as
 * JSON with every object's keys sorted and no whitespace, then SHA-256.
 * The key is positional: moving a handler to another index un-trusts it.
 * The end-to-end suite checks these against the real binary (hooks run
 * without `--dangerously-bypass-hook-trust`).
 */
export const CODEX_EVENT_LABELS: Readonly<Record<string, string>> = {
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  UserPromptSubmit: 'user_prompt_submit',
  SubagentStart: 'subagent_start',
  SubagentStop: 'subagent_stop',
  Stop: 'stop',
};

/** The label Codex keys an event's trust under; undefined for an event Codex does not run (`Notification`, `constructor`). */
export function codexEventLabel(event: string): string | undefined {
  return Object.hasOwn(CODEX_EVENT_LABELS, event) ? CODEX_EVENT_LABELS[event] : undefined;
}

/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop']);

/** A command handler as it sits in `hooks.json`. */
export interface CodexCommandHandler {
  readonly command: string;
  /** Seconds (`timeout`, or the older `timeoutSec`). */
  readonly timeout?: number;
  readonly async?: boolean;
  readonly statusMessage?: string;
}

/** The `[hooks.state]` key Codex looks a handler's trust up under. */
export function codexHookKey(hooksFile: string, event: string, groupIndex: number, handlerIndex: number): string {
  const label = codexEventLabel(event);
  if (label === undefined) throw new Error(`no Codex event label for ${event}`);
  return `${hooksFile}:${label}:${groupIndex}:${handlerIndex}`;
}

/** The `trusted_hash` Codex expects for a command handler in a matcher group. */
export function codexHookHash(event: string, matcher: string | undefined, handler: CodexCommandHandler): string {
  const label = codexEventLabel(event);
  if (label === undefined) throw new Error(`no Codex event label for ${event}`);
  const normalized: Record<string, unknown> = {
    type: 'command',
    command: handler.command,
    timeout: Math.max(1, Math.trunc(handler.timeout ?? 600)),
    async: handler.async ?? false,
    ...(handler.statusMessage !== undefined && { statusMessage: handler.statusMessage }),
  };
  const identity = {
    event_name: label,
    ...(matcher !== undefined && !NO_MATCHER.has(event) && { matcher }),
    hooks: [normalized],
  };
  return `sha256:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
}

/** JSON with every object's keys sorted, no whitespace (serde_json's compact form). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
