import type { SeamId } from '../seams/index.ts';

/** The coding-agent hook protocols hookbox speaks besides its own msgpack wire. */
export const TOOL_PROTOCOLS = ['claude-code', 'codex'] as const;
/** A coding agent's JSON-on-stdin / exit-code hook protocol. */
export type ToolProtocol = (typeof TOOL_PROTOCOLS)[number];

/** How each protocol names itself in messages. */
export const PROTOCOL_LABEL: Readonly<Record<ToolProtocol, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
};

/** The event each seam maps to. Claude Code and Codex use the same names for these five. */
export const EVENT_FOR_SEAM = {
  'agent/session-start': 'SessionStart',
  'agent/prompt-submit': 'UserPromptSubmit',
  'tools/pre-execute': 'PreToolUse',
  'tools/post-execute': 'PostToolUse',
  'agent/turn-continuation': 'Stop',
} as const satisfies Record<SeamId, string>;

/** A hook event hookbox supports, by its Claude Code / Codex name. */
export type ToolEventName = (typeof EVENT_FOR_SEAM)[SeamId];

/** The seam each supported event maps to. */
export const SEAM_FOR_EVENT: Readonly<Record<ToolEventName, SeamId>> = Object.fromEntries(
  Object.entries(EVENT_FOR_SEAM).map(([seam, event]) => [event, seam]),
) as Record<ToolEventName, SeamId>;

export function isToolEventName(name: string): name is ToolEventName {
  return Object.hasOwn(SEAM_FOR_EVENT, name);
}

/**
 * What one hook run produced, in the protocol's terms: a command's exit code,
 * stdout and stderr, or a wasm export's return code, output and `error_set` text.
 */
export interface ProtocolResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Claude Code's default timeout for a command hook: 600 s (raised from 60 s in
 * Claude Code 2.1.3; Codex uses 600 s too). Also hookbox's largest `timeoutMs`.
 */
export const TOOL_DEFAULT_TIMEOUT_MS = 600_000;

/** Every SessionStart source, which a SessionStart matcher selects from. */
export const SESSION_START_SOURCES = ['startup', 'resume', 'clear', 'compact'] as const;
