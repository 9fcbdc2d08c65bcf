// The one definition of the wire between the per-event clients and
// `hookbox serve` (issue #50 item 2: it was written out three times). The
// node client (host/cli/hookbox-hook.cjs), its closed answers
// (host/cli/hook-closed.cjs) and the plugin client
// (host/agents/plugin-client.mjs) require it; the sh client
// (host/cli/hookbox-hook.sh) and the native client's header
// (host/cli/native/wire.h) carry a block generated from it by `npm run gen`
// (scripts/gen-wire.mjs; tests/unit/wire-generated.spec.ts fails when a
// block is stale). The server's side (host/serve) is TypeScript;
// tests/unit/hook-client-closed.spec.ts holds the two equal.
// Plain CommonJS on nothing at all: the clients load no TypeScript and no ESM on their hot path.
'use strict';

/** Request headers: the config the client decides by, its nonce, the sh client's framing. */
const CONFIG_HEADER = 'x-hookbox-config';
const NONCE_HEADER = 'x-hookbox-nonce';
const FRAME_HEADER = 'x-hookbox-frame';
const FRAME_LINE = 'line';
/** Answer headers: the command-hook exit code, why the server refused to decide, its proof. */
const EXIT_HEADER = 'x-hookbox-exit';
const REFUSED_HEADER = 'x-hookbox-refused';
const PROOF_HEADER = 'x-hookbox-proof';

/** Longest unix socket path the kernel takes (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;
/** The whole client's deadline when setup wrote none (what host/agents/answer-deadline.ts calls the default). */
const DEFAULT_DEADLINE_MS = 25_000;
const DEFAULT_MAX_CONTINUATIONS = 3;
/** The largest event a client reads from the agent. */
const MAX_STDIN = 4 * 1024 * 1024;
/** The longest answer a client reads: `hookbox serve` caps each text at a few KiB, so more is not its answer. */
const MAX_ANSWER = 1024 * 1024;
/** The longest reason text a client writes of its own (after `plain`). */
const MAX_REASON = 500;

/**
 * The agents whose events carry no name (Copilot CLI's own format, Cline):
 * the event is the command line's, never one read from the JSON — a tool's
 * arguments (the model's) could hold a `hook_event_name` of their own. For
 * every other agent the JSON's event is the one, and a word after the agent
 * name is not trusted. The bridges' `eventOnCommandLine`, held equal by a test.
 */
const EVENT_ON_COMMAND_LINE = ['copilot', 'cline'];

/** The variable each agent names its project folder by in a hook's environment (Codex names none). */
const PROJECT_DIR_VARIABLE = {
  'claude-code': 'CLAUDE_PROJECT_DIR',
  gemini: 'GEMINI_PROJECT_DIR',
  qwen: 'QWEN_PROJECT_DIR',
  factory: 'FACTORY_PROJECT_DIR',
  copilot: 'COPILOT_PROJECT_DIR',
};

/** One printable line of the client's own words (no control, bidi or non-ASCII character reaches the agent's UI). */
function plain(text) {
  return String(text)
    .replace(/[^\x20-\x7e]+/g, ' ')
    .slice(0, MAX_REASON);
}

/** The agent's event name, read from the raw stdin text without trusting it to parse. */
function sniffEvent(text) {
  return /"hook_event_name"\s*:\s*"([A-Za-z_.]{1,40})"/.exec(text)?.[1];
}

/**
 * The closed answers as data, so the sh and native clients get them
 * generated: each form is a JSON value whose strings may hold `{reason}`
 * (the reason text, `hookbox: ` and the plain words), written on stdout with
 * exit 0. `LET_THROUGH` is no answer at all; an event missing from the table
 * (or unread) gets exit 2 with the reason on stderr.
 *
 * Claude Code's PostToolUse closed form is the JSON a block uses
 * (`continue: false`), not exit 2: Claude Code shows the model the output of
 * a PostToolUse hook that exits 2. Stop and SessionStart are let through
 * (forcing a turn on, or refusing to start, is no safe default).
 */
const REASON = '{reason}';
const LET_THROUGH = 'let-through';
const FORMS = {
  preToolDeny: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: REASON } },
  block: { decision: 'block', reason: REASON },
  claudeWithheld: { continue: false, stopReason: REASON, decision: 'block', reason: REASON },
  geminiDeny: { decision: 'deny', reason: REASON },
  // The plugin agents' vocabulary (host/agents/plugin-answers.ts): `hookbox hook pi|opencode|kilo` is their in-process fallback.
  pluginDeny: { deny: REASON },
  pluginWithheld: { content: `(output withheld by a hookbox hook): ${REASON}`, isError: true },
  pluginBlock: { block: REASON },
  // Copilot CLI's own format (copilot/bridge.ts): flat answers.
  copilotDeny: { permissionDecision: 'deny', permissionDecisionReason: REASON },
  copilotWithheld: { modifiedResult: { resultType: 'failure', textResultForLlm: `Tool result withheld by a hook: ${REASON}` } },
  copilotFailureContext: { additionalContext: `Tool result withheld by a hook: ${REASON}` },
  // Cline CLI (cline/bridge.ts): `cancel: true` is its one control, read from stdout whatever the exit code.
  clineCancel: { cancel: true, errorMessage: REASON },
  clineWithheld: { cancel: true, errorMessage: `Tool result withheld by a hook: ${REASON}` },
  // The agent's own permission prompt (#51) answered for the person: refused. Claude Code's and Codex's form; Copilot's flat one.
  permissionDeny: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: REASON } } },
  copilotPermissionDeny: { behavior: 'deny', message: REASON },
};

/** The Claude hook format's closed answers (every agent of the format: claude-format/bridge.ts). */
const CLAUDE_FORMAT = {
  PreToolUse: 'preToolDeny',
  UserPromptSubmit: 'block',
  PostToolUse: 'claudeWithheld',
  PostToolUseFailure: 'claudeWithheld',
  Stop: LET_THROUGH,
  SessionStart: LET_THROUGH,
};
/**
 * The lifecycle events (#51) of the agents of Claude Code's hook names: a
 * permission request is a gate (refused); the rest are let through — a
 * fault never keeps a session open, blocks a compaction or forces a
 * subagent on.
 */
const CLAUDE_LIFECYCLE = {
  SessionEnd: LET_THROUGH,
  PreCompact: LET_THROUGH,
  SubagentStart: LET_THROUGH,
  SubagentStop: LET_THROUGH,
  PermissionRequest: 'permissionDeny',
  Notification: LET_THROUGH,
};
/** OpenCode's plugin API's closed answers (OpenCode, Kilo CLI: opencode/bridge.ts). */
const OPENCODE_FORMAT = {
  'tool.execute.before': 'pluginDeny',
  'tool.execute.after': 'pluginWithheld',
  'chat.message': 'pluginBlock',
  'session.idle': LET_THROUGH,
  'session.created': LET_THROUGH,
};

/** Agent → its event → the name of its closed form in FORMS (or let through). */
const CLOSED = {
  'claude-code': { ...CLAUDE_FORMAT, ...CLAUDE_LIFECYCLE },
  qwen: { ...CLAUDE_FORMAT, ...CLAUDE_LIFECYCLE },
  factory: { ...CLAUDE_FORMAT, SessionEnd: LET_THROUGH, PreCompact: LET_THROUGH, SubagentStop: LET_THROUGH, Notification: LET_THROUGH },
  codex: {
    PreToolUse: 'preToolDeny',
    UserPromptSubmit: 'block',
    PostToolUse: 'block',
    Stop: LET_THROUGH,
    SessionStart: LET_THROUGH,
    SessionEnd: LET_THROUGH,
    PreCompact: LET_THROUGH,
    SubagentStart: LET_THROUGH,
    SubagentStop: LET_THROUGH,
    PermissionRequest: 'permissionDeny',
  },
  gemini: {
    BeforeTool: 'geminiDeny',
    BeforeAgent: 'geminiDeny',
    AfterTool: 'geminiDeny',
    AfterAgent: LET_THROUGH,
    SessionStart: LET_THROUGH,
    SessionEnd: LET_THROUGH,
    PreCompress: LET_THROUGH,
    Notification: LET_THROUGH,
  },
  copilot: {
    preToolUse: 'copilotDeny',
    userPromptSubmitted: 'block',
    postToolUse: 'copilotWithheld',
    postToolUseFailure: 'copilotFailureContext',
    agentStop: LET_THROUGH,
    sessionStart: LET_THROUGH,
    sessionEnd: LET_THROUGH,
    subagentStart: LET_THROUGH,
    subagentStop: LET_THROUGH,
    permissionRequest: 'copilotPermissionDeny',
  },
  pi: { tool_call: 'pluginDeny', tool_result: 'pluginWithheld', input: 'pluginBlock', agent_end: LET_THROUGH, session_start: LET_THROUGH, session_shutdown: LET_THROUGH, session_before_compact: LET_THROUGH },
  opencode: OPENCODE_FORMAT,
  kilo: OPENCODE_FORMAT,
  cline: { PreToolUse: 'clineCancel', PostToolUse: 'clineWithheld', TaskStart: LET_THROUGH, UserPromptSubmit: LET_THROUGH, TaskComplete: LET_THROUGH, SessionShutdown: LET_THROUGH },
};

/** The plugin client's closed forms per kind of event ('let-through' and any other kind: no answer). */
const PLUGIN_CLOSED = { preTool: 'pluginDeny', postTool: 'pluginWithheld', prompt: 'pluginBlock' };

/** A form with `{reason}` put in each string (the value, not JSON). */
function fill(form, reason) {
  if (typeof form === 'string') return form.split(REASON).join(reason);
  if (form === null || typeof form !== 'object') return form;
  return Object.fromEntries(Object.entries(form).map(([key, value]) => [key, fill(value, reason)]));
}

/** The closed form's name for `agent`'s `event` (undefined: exit 2; LET_THROUGH: no answer). */
function closedForm(agent, event) {
  const table = Object.hasOwn(CLOSED, agent) ? CLOSED[agent] : {};
  return event !== undefined && Object.hasOwn(table, event) ? table[event] : undefined;
}

module.exports = {
  CONFIG_HEADER,
  NONCE_HEADER,
  FRAME_HEADER,
  FRAME_LINE,
  EXIT_HEADER,
  REFUSED_HEADER,
  PROOF_HEADER,
  MAX_SOCKET_PATH,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_CONTINUATIONS,
  MAX_STDIN,
  MAX_ANSWER,
  MAX_REASON,
  EVENT_ON_COMMAND_LINE,
  PROJECT_DIR_VARIABLE,
  REASON,
  LET_THROUGH,
  FORMS,
  CLOSED,
  PLUGIN_CLOSED,
  plain,
  sniffEvent,
  fill,
  closedForm,
};
