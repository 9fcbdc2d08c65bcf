/**
 * The rows of the bridge golden tables: what a Claude Code / Codex hook is
 * given (a seam payload) and what it answers (exit code, stdout, stderr).
 * The computed columns (the JSON the hook reads; the outcome and the decision
 * the seam takes) live in `tests/golden/bridges/*.json`, written only by
 * `npm run golden:update`.
 */
import type { ProtocolResult } from '../../host/bridges/index.ts';
import type { DecisionOf, PayloadOf, SeamId } from '../../host/seams/index.ts';

export interface InputCase<S extends SeamId = SeamId> {
  readonly name: string;
  readonly seam: S;
  readonly payload: PayloadOf<S>;
}

export interface OutputCase {
  readonly name: string;
  readonly seam: SeamId;
  readonly result: ProtocolResult;
  /**
   * What the seam must take, written by hand so the table checks itself: the
   * applied action (`none` = no opinion or an ignored fault, `context` = a
   * session-start context), then `/kind` when the hook faulted.
   */
  readonly want: string;
  /** Codex's answer, where it differs. */
  readonly codexWant?: string;
}

export interface ComposeCase {
  readonly name: string;
  readonly seam: SeamId;
  /** One hook per result, in configured order. */
  readonly results: readonly ProtocolResult[];
}

const ok = (stdout: string): ProtocolResult => ({ exitCode: 0, stdout, stderr: '' });
const json = (value: unknown): ProtocolResult => ok(JSON.stringify(value));
const exit = (exitCode: number, stderr = '', stdout = ''): ProtocolResult => ({ exitCode, stdout, stderr });
const pre = (permissionDecision: string, permissionDecisionReason?: string) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision, ...(permissionDecisionReason !== undefined && { permissionDecisionReason }) } });
const context = (hookEventName: string, additionalContext: string) => json({ hookSpecificOutput: { hookEventName, additionalContext } });

/** The session every golden call runs in. */
export const GOLDEN_SESSION = { id: 'session-1', turn: 2, step: 1, cwd: '/work/project' } as const;

/** The decision so far handed to each seam's hook (the seam's default). */
export const GOLDEN_NEXT: { [S in SeamId]: DecisionOf<S> | null } = {
  'agent/session-start': null,
  'agent/prompt-submit': { action: 'allow' },
  'tools/pre-execute': { action: 'allow' },
  'tools/post-execute': { action: 'accept' },
  'agent/turn-continuation': { action: 'stop' },
  'tools/permission-request': { action: 'ask' },
  'agent/subagent-start': null,
  'agent/subagent-stop': { action: 'stop' },
  'agent/notification': null,
  'agent/pre-compact': { action: 'allow' },
  'agent/session-end': null,
};

const bashCall = { toolCallId: 'call-1', toolName: 'bash', arguments: { command: 'rm -rf build', timeoutMs: 5000 } };

export const INPUT_CASES: readonly InputCase[] = [
  { name: 'session start', seam: 'agent/session-start', payload: { source: 'startup' } },
  { name: 'session resume', seam: 'agent/session-start', payload: { source: 'resume' } },
  { name: 'prompt', seam: 'agent/prompt-submit', payload: { content: 'fix the failing test', source: 'cli' } },
  { name: 'bash', seam: 'tools/pre-execute', payload: bashCall },
  { name: 'read_file (relative path made absolute)', seam: 'tools/pre-execute', payload: { toolCallId: 'call-2', toolName: 'read_file', arguments: { path: 'src/a.ts' } } },
  { name: 'write_file', seam: 'tools/pre-execute', payload: { toolCallId: 'call-3', toolName: 'write_file', arguments: { path: 'notes.md', content: 'hi' } } },
  { name: 'list_dir', seam: 'tools/pre-execute', payload: { toolCallId: 'call-4', toolName: 'list_dir', arguments: { path: '.' } } },
  { name: 'unknown tool passes through', seam: 'tools/pre-execute', payload: { toolCallId: 'call-5', toolName: 'mcp__db__query', arguments: { sql: 'select 1' } } },
  { name: 'bash result', seam: 'tools/post-execute', payload: { ...bashCall, result: { content: 'removed\nexit code: 0', isError: false } } },
  {
    name: 'read_file result',
    seam: 'tools/post-execute',
    payload: { toolCallId: 'call-2', toolName: 'read_file', arguments: { path: 'src/a.ts' }, result: { content: 'export {}', isError: false } },
  },
  {
    name: 'failed write_file result',
    seam: 'tools/post-execute',
    payload: { toolCallId: 'call-3', toolName: 'write_file', arguments: { path: '/etc/x', content: 'x' }, result: { content: 'EACCES', isError: true } },
  },
  { name: 'stop, first time', seam: 'agent/turn-continuation', payload: { continuations: 0, lastAssistantText: 'done' } },
  { name: 'stop, already continued', seam: 'agent/turn-continuation', payload: { continuations: 1 } },
  { name: 'permission request', seam: 'tools/permission-request', payload: { ...bashCall, reason: 'bash needs approval' } },
  { name: 'subagent start', seam: 'agent/subagent-start', payload: { agentId: 'agent-7', agentType: 'Explore' } },
  { name: 'subagent stop, already continued', seam: 'agent/subagent-stop', payload: { agentId: 'agent-7', agentType: 'Explore', continuations: 1, lastAssistantText: 'found it' } },
  { name: 'notification', seam: 'agent/notification', payload: { kind: 'idle', message: 'Claude is waiting for your input', title: 'Waiting' } },
  { name: 'manual compaction', seam: 'agent/pre-compact', payload: { trigger: 'manual', instructions: 'keep the test plan' } },
  { name: 'session end on exit', seam: 'agent/session-end', payload: { reason: 'exit' } },
];

export const OUTPUT_CASES: readonly OutputCase[] = [
  // SessionStart: a notification, it can add context but never block.
  { name: 'empty stdout: no opinion', seam: 'agent/session-start', result: ok(''), want: 'none' },
  { name: 'plain stdout: context', seam: 'agent/session-start', result: ok('branch main, 3 files changed\n'), want: 'context' },
  { name: 'additionalContext', seam: 'agent/session-start', result: context('SessionStart', 'project uses pnpm'), want: 'context' },
  { name: 'exit 2 cannot block start-up: fault, ignored', seam: 'agent/session-start', result: exit(2, 'no!'), want: 'none/plugin-error' },
  { name: 'continue false cannot stop start-up: fault, ignored', seam: 'agent/session-start', result: json({ continue: false, stopReason: 'x' }), want: 'none/schema' },
  { name: 'hookEventName of another event: schema fault', seam: 'agent/session-start', result: context('UserPromptSubmit', 'x'), want: 'none/schema' },

  // UserPromptSubmit
  { name: 'empty stdout: no opinion', seam: 'agent/prompt-submit', result: ok('  \n'), want: 'none' },
  { name: 'plain stdout: context', seam: 'agent/prompt-submit', result: ok('today is Tuesday'), want: 'allow' },
  { name: 'additionalContext: allow with context', seam: 'agent/prompt-submit', result: context('UserPromptSubmit', 'see CONTRIBUTING.md'), want: 'allow' },
  { name: 'decision block with reason: block', seam: 'agent/prompt-submit', result: json({ decision: 'block', reason: 'looks like a secret' }), want: 'block' },
  { name: 'decision block without reason: schema fault, block', seam: 'agent/prompt-submit', result: json({ decision: 'block' }), want: 'block/schema' },
  { name: 'exit 2 with stderr: block with stderr', seam: 'agent/prompt-submit', result: exit(2, 'prompt contains an API key\n'), want: 'block' },
  { name: 'exit 2 without stderr', seam: 'agent/prompt-submit', result: exit(2), want: 'block', codexWant: 'block/plugin-error' },
  { name: 'exit 2 ignores JSON on stdout', seam: 'agent/prompt-submit', result: exit(2, 'blocked', '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}'), want: 'block' },
  { name: 'exit 1 ignores JSON on stdout: plugin-error, block', seam: 'agent/prompt-submit', result: exit(1, 'crashed', '{"decision":"block","reason":"x"}'), want: 'block/plugin-error' },
  { name: 'continue false with stopReason: block', seam: 'agent/prompt-submit', result: json({ continue: false, stopReason: 'session paused' }), want: 'block' },
  { name: 'flat additionalContext: schema fault', seam: 'agent/prompt-submit', result: json({ additionalContext: 'x' }), want: 'block/schema' },
  { name: 'systemMessage and suppressOutput only: no opinion', seam: 'agent/prompt-submit', result: json({ systemMessage: 'checked', suppressOutput: true }), want: 'none' },

  // PreToolUse
  { name: 'empty stdout: no opinion', seam: 'tools/pre-execute', result: ok(''), want: 'none' },
  { name: 'plain stdout: no opinion', seam: 'tools/pre-execute', result: ok('checked'), want: 'none' },
  { name: 'permissionDecision allow', seam: 'tools/pre-execute', result: pre('allow', 'read-only command'), want: 'allow' },
  { name: 'permissionDecision deny', seam: 'tools/pre-execute', result: pre('deny', 'rm -rf is not allowed'), want: 'deny' },
  { name: 'permissionDecision deny without reason', seam: 'tools/pre-execute', result: pre('deny'), want: 'deny' },
  { name: 'permissionDecision ask', seam: 'tools/pre-execute', result: pre('ask', 'touches production'), want: 'ask' },
  { name: 'permissionDecision defer: schema fault, deny', seam: 'tools/pre-execute', result: pre('defer'), want: 'deny/schema' },
  {
    name: 'updatedInput without the call (a wasm codec): schema fault naming the field, deny',
    seam: 'tools/pre-execute',
    result: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } } }),
    want: 'deny/schema',
  },
  { name: 'flat permissionDecision: schema fault, deny', seam: 'tools/pre-execute', result: json({ permissionDecision: 'allow' }), want: 'deny/schema' },
  { name: 'flat updatedInput: schema fault, deny', seam: 'tools/pre-execute', result: json({ updatedInput: { command: 'ls' } }), want: 'deny/schema' },
  { name: 'legacy decision approve: allow', seam: 'tools/pre-execute', result: json({ decision: 'approve', reason: 'fine' }), want: 'allow' },
  { name: 'legacy decision block: deny', seam: 'tools/pre-execute', result: json({ decision: 'block', reason: 'no network' }), want: 'deny' },
  { name: 'exit 2 with stderr: deny with stderr', seam: 'tools/pre-execute', result: exit(2, 'refusing rm -rf\n'), want: 'deny' },
  { name: 'exit 2 without stderr', seam: 'tools/pre-execute', result: exit(2), want: 'deny', codexWant: 'deny/plugin-error' },
  { name: 'exit 2 ignores an allow on stdout', seam: 'tools/pre-execute', result: { exitCode: 2, stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }), stderr: 'no' }, want: 'deny' },
  { name: 'exit 1 ignores a deny on stdout: plugin-error, deny', seam: 'tools/pre-execute', result: { exitCode: 1, stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'x' } }), stderr: '' }, want: 'deny/plugin-error' },
  { name: 'exit 127 (command not found): plugin-error, deny', seam: 'tools/pre-execute', result: exit(127, 'sh: 1: ./guard.sh: not found'), want: 'deny/plugin-error' },
  { name: 'malformed JSON: decode fault, deny', seam: 'tools/pre-execute', result: ok('{"hookSpecificOutput": {'), want: 'deny/decode' },
  { name: 'JSON array: decode fault, deny', seam: 'tools/pre-execute', result: ok('["deny"]'), want: 'deny/decode' },
  { name: 'continue false: deny with stopReason', seam: 'tools/pre-execute', result: json({ continue: false, stopReason: 'out of budget' }), want: 'deny' },
  { name: 'additionalContext at pre-tool: schema fault', seam: 'tools/pre-execute', result: context('PreToolUse', 'x'), want: 'deny/schema' },
  { name: 'unknown field: schema fault', seam: 'tools/pre-execute', result: json({ allow: true }), want: 'deny/schema' },
  { name: 'reason without decision: schema fault', seam: 'tools/pre-execute', result: json({ reason: 'x' }), want: 'deny/schema' },
  { name: 'continue of the wrong type: schema fault', seam: 'tools/pre-execute', result: json({ continue: 'no' }), want: 'deny/schema' },

  // PostToolUse
  { name: 'empty stdout: no opinion', seam: 'tools/post-execute', result: ok(''), want: 'none' },
  { name: 'additionalContext: accept with context', seam: 'tools/post-execute', result: context('PostToolUse', 'lint: 2 warnings'), want: 'accept' },
  { name: 'decision block with reason: block', seam: 'tools/post-execute', result: json({ decision: 'block', reason: 'output contains a token' }), want: 'block' },
  { name: 'exit 2 with stderr: block with stderr', seam: 'tools/post-execute', result: exit(2, 'secret in output'), want: 'block' },
  { name: 'updatedMCPToolOutput: schema fault, block', seam: 'tools/post-execute', result: json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'x' } }), want: 'block/schema' },
  { name: 'exit 1: plugin-error, block', seam: 'tools/post-execute', result: exit(1, 'formatter failed'), want: 'block/plugin-error' },

  // Stop
  { name: 'empty stdout: no opinion (the turn stops)', seam: 'agent/turn-continuation', result: ok(''), want: 'none' },
  { name: 'decision block with reason: continue with the reason', seam: 'agent/turn-continuation', result: json({ decision: 'block', reason: 'run the tests first' }), want: 'continue' },
  { name: 'decision block without reason: schema fault, ignored', seam: 'agent/turn-continuation', result: json({ decision: 'block' }), want: 'none/schema' },
  { name: 'exit 2 with stderr: continue with stderr', seam: 'agent/turn-continuation', result: exit(2, 'tests are failing'), want: 'continue' },
  { name: 'continue false: stop', seam: 'agent/turn-continuation', result: json({ continue: false, decision: 'block', reason: 'x' }), want: 'stop' },
  { name: 'hookSpecificOutput: schema fault, ignored', seam: 'agent/turn-continuation', result: context('Stop', 'x'), want: 'none/schema' },
  { name: 'exit 1: plugin-error, ignored', seam: 'agent/turn-continuation', result: exit(1, 'oops'), want: 'none/plugin-error' },

  // PermissionRequest: the hook answers for the person, or leaves the question to them.
  { name: 'empty stdout: no opinion (the person is asked)', seam: 'tools/permission-request', result: ok(''), want: 'none' },
  { name: 'behavior allow: allow', seam: 'tools/permission-request', result: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }), want: 'allow' },
  { name: 'behavior deny with message: deny', seam: 'tools/permission-request', result: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'not on Fridays' } } }), want: 'deny' },
  { name: 'exit 2 with stderr: deny', seam: 'tools/permission-request', result: exit(2, 'no'), want: 'deny' },
  { name: 'updatedInput: schema fault, deny', seam: 'tools/permission-request', result: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls' } } } }), want: 'deny/schema' },
  { name: 'a behavior hookbox does not know: schema fault, deny', seam: 'tools/permission-request', result: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'maybe' } } }), want: 'deny/schema' },
  { name: 'permissionDecision is PreToolUse\'s: schema fault, deny', seam: 'tools/permission-request', result: pre('allow'), want: 'deny/schema' },

  // SubagentStart: context only.
  { name: 'additionalContext', seam: 'agent/subagent-start', result: context('SubagentStart', 'stay in src/'), want: 'context' },
  { name: 'exit 2 cannot block a subagent: fault, ignored', seam: 'agent/subagent-start', result: exit(2, 'no'), want: 'none/plugin-error' },

  // SubagentStop: as Stop.
  { name: 'decision block with reason: continue', seam: 'agent/subagent-stop', result: json({ decision: 'block', reason: 'check the other folder too' }), want: 'continue' },
  { name: 'exit 2 with stderr: continue', seam: 'agent/subagent-stop', result: exit(2, 'not done'), want: 'continue' },
  { name: 'exit 1: plugin-error, ignored (the subagent stops)', seam: 'agent/subagent-stop', result: exit(1, 'oops'), want: 'none/plugin-error' },

  // Notification and SessionEnd decide nothing.
  { name: 'JSON without fields: no opinion', seam: 'agent/notification', result: json({ suppressOutput: true }), want: 'none' },
  { name: 'exit 2 cannot block a notification: fault, ignored', seam: 'agent/notification', result: exit(2, 'no'), want: 'none/plugin-error' },
  { name: 'decision block: schema fault, ignored', seam: 'agent/session-end', result: json({ decision: 'block', reason: 'stay' }), want: 'none/schema' },

  // PreCompact: block where the agent lets a hook; a fault never blocks.
  { name: 'decision block with reason: block', seam: 'agent/pre-compact', result: json({ decision: 'block', reason: 'summarise after the release' }), want: 'block' },
  { name: 'exit 2 with stderr: block', seam: 'agent/pre-compact', result: exit(2, 'not now'), want: 'block' },
  { name: 'exit 1: plugin-error, ignored (compaction goes on)', seam: 'agent/pre-compact', result: exit(1, 'oops'), want: 'none/plugin-error' },
];

export const COMPOSE_CASES: readonly ComposeCase[] = [
  { name: 'allow, ask, deny: deny', seam: 'tools/pre-execute', results: [pre('allow', 'a'), pre('ask', 'b'), pre('deny', 'c')] },
  { name: 'deny first: the rest never run', seam: 'tools/pre-execute', results: [exit(2, 'first says no'), pre('allow', 'b'), pre('ask', 'c')] },
  { name: 'ask, allow: ask (then deny without a prompter)', seam: 'tools/pre-execute', results: [pre('ask', 'check with a human'), pre('allow', 'fine')] },
  { name: 'allow, allow: allow with the first reason', seam: 'tools/pre-execute', results: [pre('allow', 'one'), pre('allow', 'two')] },
  { name: 'context accumulates, then a block wins', seam: 'agent/prompt-submit', results: [ok('first'), context('UserPromptSubmit', 'second'), exit(2, 'blocked'), ok('never runs')] },
  { name: 'stop hooks: a later no-opinion does not undo a continue', seam: 'agent/turn-continuation', results: [json({ decision: 'block', reason: 'lint' }), ok('')] },
  {
    name: 'permission: an allow, then a deny: deny',
    seam: 'tools/permission-request',
    results: [
      json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
      json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'second says no' } } }),
    ],
  },
];
