// What `hookbox hook <agent>` answers when it gives up without a decision
// (its deadline passed, the server answered nothing usable, its own error):
// each seam's closed form in the agent's own format — a tool call denied, a
// prompt blocked, a result withheld. It repeats the bridges' `failClosed`
// tables (host/agents/*/bridge.ts) in plain CommonJS because the client
// must not load TypeScript to answer; tests/unit/hook-client-closed.spec.ts
// holds the two equal for every agent and event.
//
// Claude Code's PostToolUse closed form is the JSON a block uses
// (`continue: false`), not exit 2: Claude Code shows the model the output of
// a PostToolUse hook that exits 2. Stop and SessionStart are let through
// (forcing a turn on, or refusing to start, is no safe default); an event
// the client cannot name gets exit 2.
'use strict';

const json = (value) => ({ exitCode: 0, stdout: `${JSON.stringify(value)}\n`, stderr: '' });
const preToolDeny = (text) => json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } });
const block = (text) => json({ decision: 'block', reason: text });
const claudeWithheld = (text) => json({ continue: false, stopReason: text, decision: 'block', reason: text });
const geminiDeny = (text) => json({ decision: 'deny', reason: text });
const LET_THROUGH = 'let-through';
// The plugin agents' vocabulary (host/agents/plugin-answers.ts): `hookbox hook pi|opencode|kilo` is their in-process fallback.
const pluginDeny = (text) => json({ deny: text });
const pluginWithheld = (text) => json({ content: `(output withheld by a hookbox hook): ${text}`, isError: true });
const pluginBlock = (text) => json({ block: text });

/** The Claude hook format's closed answers (every agent of the format: claude-format/bridge.ts). */
const CLAUDE_FORMAT = {
  PreToolUse: preToolDeny,
  UserPromptSubmit: block,
  PostToolUse: claudeWithheld,
  PostToolUseFailure: claudeWithheld,
  Stop: LET_THROUGH,
  SessionStart: LET_THROUGH,
};

/** OpenCode's plugin API's closed answers (OpenCode, Kilo CLI: opencode/bridge.ts). */
const OPENCODE_FORMAT = {
  'tool.execute.before': pluginDeny,
  'tool.execute.after': pluginWithheld,
  'chat.message': pluginBlock,
  'session.idle': LET_THROUGH,
  'session.created': LET_THROUGH,
};
/** Copilot CLI's own format (copilot/bridge.ts): flat answers, the event named on the command line. */
const copilotDeny = (text) => json({ permissionDecision: 'deny', permissionDecisionReason: text });
const copilotWithheld = (text) => json({ modifiedResult: { resultType: 'failure', textResultForLlm: `Tool result withheld by a hook: ${text}` } });
const copilotFailureContext = (text) => json({ additionalContext: `Tool result withheld by a hook: ${text}` });

/** Cline CLI (cline/bridge.ts): `cancel: true` is its one control, read from stdout whatever the exit code (an exit 2 with no JSON is an allow there). */
const clineCancel = (text) => json({ cancel: true, errorMessage: text });
const clineWithheld = (text) => clineCancel(`Tool result withheld by a hook: ${text}`);

/** Agent → its event → the closed answer for a reason text (or let through). */
const CLOSED = {
  'claude-code': CLAUDE_FORMAT,
  qwen: CLAUDE_FORMAT,
  factory: CLAUDE_FORMAT,
  codex: { PreToolUse: preToolDeny, UserPromptSubmit: block, PostToolUse: block, Stop: LET_THROUGH, SessionStart: LET_THROUGH },
  gemini: { BeforeTool: geminiDeny, BeforeAgent: geminiDeny, AfterTool: geminiDeny, AfterAgent: LET_THROUGH, SessionStart: LET_THROUGH },
  copilot: {
    preToolUse: copilotDeny,
    userPromptSubmitted: block,
    postToolUse: copilotWithheld,
    postToolUseFailure: copilotFailureContext,
    agentStop: LET_THROUGH,
    sessionStart: LET_THROUGH,
  },
  pi: { tool_call: pluginDeny, tool_result: pluginWithheld, input: pluginBlock, agent_end: LET_THROUGH, session_start: LET_THROUGH },
  opencode: OPENCODE_FORMAT,
  kilo: OPENCODE_FORMAT,
  cline: { PreToolUse: clineCancel, PostToolUse: clineWithheld, TaskStart: LET_THROUGH, UserPromptSubmit: LET_THROUGH, TaskComplete: LET_THROUGH },
};

/** One printable line of the client's own words (no control, bidi or non-ASCII character reaches the agent's UI). */
function plain(text) {
  return String(text)
    .replace(/[^\x20-\x7e]+/g, ' ')
    .slice(0, 500);
}

/** The agent's event name, read from the raw stdin text without trusting it to parse. */
function sniffEvent(text) {
  return /"hook_event_name"\s*:\s*"([A-Za-z_.]{1,40})"/.exec(text)?.[1];
}

/** The closed answer of `agent` for `event` (undefined when unread), the reason prefixed `hookbox: `. */
function closedAnswer(agent, event, reason) {
  const text = `hookbox: ${plain(reason)}`;
  const table = Object.hasOwn(CLOSED, agent) ? CLOSED[agent] : {};
  const entry = event !== undefined && Object.hasOwn(table, event) ? table[event] : undefined;
  if (entry === LET_THROUGH) return { exitCode: 0, stdout: '', stderr: '' };
  if (entry !== undefined) return entry(text);
  return { exitCode: 2, stdout: '', stderr: `${text}\n` };
}

module.exports = { CLOSED, closedAnswer, plain, sniffEvent };
