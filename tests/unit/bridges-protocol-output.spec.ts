/**
 * What a Claude Code / Codex hook's exit code, stdout and stderr decide on
 * each seam (host/bridges/protocol-output.ts), one row per cell of the
 * README's "Output → decision" table, each outcome compared whole: the
 * decision with its reason or context, no opinion, or the fault with the
 * message a user reads. Then the user-facing `systemMessage` notices, and
 * the clipping of long texts. The golden tables (tests/golden/bridges/) run
 * a sample of these through the fault policy and the bus; here the mapper
 * is read on its own, every cell.
 */
import { describe, expect, it } from 'vitest';
import type { ProtocolResult, ToolProtocol } from '../../host/bridges/protocol.ts';
import { protocolNotices, protocolOutcome } from '../../host/bridges/protocol-output.ts';
import type { SeamId } from '../../host/seams/index.ts';

const ok = (stdout: string): ProtocolResult => ({ exitCode: 0, stdout, stderr: '' });
const json = (value: unknown): ProtocolResult => ok(JSON.stringify(value));
const exit = (exitCode: number, stderr = '', stdout = ''): ProtocolResult => ({ exitCode, stdout, stderr });
const specific = (hookEventName: string, fields: Record<string, unknown>) => json({ hookSpecificOutput: { hookEventName, ...fields } });

const NONE = { type: 'no-opinion' } as const;
const decision = (value: object) => ({ type: 'decision', decision: value });
const fault = (kind: string, message: string) => ({ type: 'fault', fault: { kind, message } });
const schema = (message: string) => fault('schema', message);

const PRE = 'tools/pre-execute';
const PROMPT = 'agent/prompt-submit';
const POST = 'tools/post-execute';
const STOP = 'agent/turn-continuation';
const START = 'agent/session-start';

interface Row {
  readonly seam: SeamId;
  readonly result: ProtocolResult;
  readonly want: unknown;
  /** Codex's outcome, where it differs from Claude Code's. */
  readonly codex?: unknown;
}

/** The stock reasons and messages, as the user reads them. */
const CC_EXIT2_NO_STDERR = 'blocked by a Claude Code hook (exit code 2, nothing on stderr)';
const CODEX_EXIT2_NO_STDERR = fault('plugin-error', 'exited with code 2 but wrote no reason to stderr (Codex treats that as a failed hook)');
const NO_DECISION = (event: string) => schema(`output.decision: ${event} takes no decision, got "block"`);

/** One table per row of the README's "Output → decision" table; a row per cell (seam). */
const TABLE: Record<string, readonly Row[]> = {
  'exit 2, stderr': [
    { seam: PRE, result: exit(2, 'refusing rm -rf\n'), want: decision({ action: 'deny', reason: 'refusing rm -rf' }) },
    { seam: PROMPT, result: exit(2, '  prompt contains an API key\n'), want: decision({ action: 'block', reason: 'prompt contains an API key' }) },
    { seam: POST, result: exit(2, 'secret in output'), want: decision({ action: 'block', reason: 'secret in output' }) },
    { seam: STOP, result: exit(2, 'tests are failing'), want: decision({ action: 'continue', reason: 'tests are failing' }) },
    {
      seam: START,
      result: exit(2, 'no!'),
      want: fault('plugin-error', 'exit code 2 cannot block agent/session-start (a notification): no!'),
    },
    // stdout is ignored on exit 2, JSON or not.
    {
      seam: PRE,
      result: exit(2, 'no', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } })),
      want: decision({ action: 'deny', reason: 'no' }),
    },
  ],
  'exit 2, no stderr': [
    { seam: PRE, result: exit(2), want: decision({ action: 'deny', reason: CC_EXIT2_NO_STDERR }), codex: CODEX_EXIT2_NO_STDERR },
    { seam: PROMPT, result: exit(2, ' \n'), want: decision({ action: 'block', reason: CC_EXIT2_NO_STDERR }), codex: CODEX_EXIT2_NO_STDERR },
    { seam: POST, result: exit(2), want: decision({ action: 'block', reason: CC_EXIT2_NO_STDERR }), codex: CODEX_EXIT2_NO_STDERR },
    { seam: STOP, result: exit(2), want: decision({ action: 'continue', reason: CC_EXIT2_NO_STDERR }), codex: CODEX_EXIT2_NO_STDERR },
    {
      seam: START,
      result: exit(2),
      want: fault('plugin-error', `exit code 2 cannot block agent/session-start (a notification): ${CC_EXIT2_NO_STDERR}`),
      codex: CODEX_EXIT2_NO_STDERR,
    },
  ],
  'other non-zero exit': [
    {
      seam: PRE,
      result: exit(1, 'crashed\n', JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } })),
      want: fault('plugin-error', "exited with code 1: crashed (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
      codex: fault('plugin-error', "exited with code 1: crashed (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
    },
    {
      seam: PROMPT,
      result: exit(127, 'sh: 1: ./guard.sh: not found'),
      want: fault('plugin-error', "exited with code 127: sh: 1: ./guard.sh: not found (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
      codex: fault('plugin-error', "exited with code 127: sh: 1: ./guard.sh: not found (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
    },
    {
      seam: POST,
      result: exit(3, '  \n'),
      want: fault('plugin-error', "exited with code 3 (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
      codex: fault('plugin-error', "exited with code 3 (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
    },
    {
      seam: STOP,
      result: exit(-1),
      want: fault('plugin-error', "exited with code -1 (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
      codex: fault('plugin-error', "exited with code -1 (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
    },
    {
      seam: START,
      result: exit(1, 'oops', 'some context'),
      want: fault('plugin-error', "exited with code 1: oops (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
      codex: fault('plugin-error', "exited with code 1: oops (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
    },
  ],
  'exit 0, empty stdout': [
    { seam: PRE, result: ok(''), want: NONE },
    { seam: PROMPT, result: ok('  \n'), want: NONE },
    { seam: POST, result: ok('\n'), want: NONE },
    { seam: STOP, result: ok(''), want: NONE },
    { seam: START, result: ok('\t\n'), want: NONE },
    // stderr on exit 0 is not a reason for anything.
    { seam: PRE, result: { exitCode: 0, stdout: '', stderr: 'warning: slow' }, want: NONE },
  ],
  'exit 0, plain text': [
    { seam: PRE, result: ok('checked'), want: NONE },
    { seam: PROMPT, result: ok('  today is Tuesday\n'), want: decision({ action: 'allow', additionalContext: 'today is Tuesday' }) },
    { seam: POST, result: ok('looks fine'), want: NONE },
    { seam: STOP, result: ok('done'), want: NONE },
    { seam: START, result: ok('branch main, 3 files changed\n'), want: decision({ additionalContext: 'branch main, 3 files changed' }) },
    // Text that only looks like JSON further in is still text.
    { seam: PROMPT, result: ok('note: {"decision": "block"}'), want: decision({ action: 'allow', additionalContext: 'note: {"decision": "block"}' }) },
  ],
  'hookSpecificOutput.permissionDecision + permissionDecisionReason': [
    { seam: PRE, result: specific('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'read-only' }), want: decision({ action: 'allow', reason: 'read-only' }) },
    { seam: PRE, result: specific('PreToolUse', { permissionDecision: 'allow' }), want: decision({ action: 'allow' }) },
    { seam: PRE, result: specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: ' rm -rf is not allowed ' }), want: decision({ action: 'deny', reason: 'rm -rf is not allowed' }) },
    {
      seam: PRE,
      result: specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: '  ' }),
      want: decision({ action: 'deny', reason: 'denied by a Claude Code hook (permissionDecision "deny" without a reason)' }),
      codex: decision({ action: 'deny', reason: 'denied by a Codex hook (permissionDecision "deny" without a reason)' }),
    },
    { seam: PRE, result: specific('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'touches production' }), want: decision({ action: 'ask', reason: 'touches production' }) },
    { seam: PRE, result: specific('PreToolUse', { permissionDecision: 'ask' }), want: decision({ action: 'ask' }) },
    // hookEventName may be left out.
    { seam: PRE, result: json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } }), want: decision({ action: 'deny', reason: 'no' }) },
    {
      seam: PRE,
      result: specific('PreToolUse', { permissionDecision: 'defer' }),
      want: schema('output.hookSpecificOutput.permissionDecision: expected "allow", "deny" or "ask", got "defer"'),
    },
    {
      seam: PRE,
      result: specific('PreToolUse', { permissionDecisionReason: 'why' }),
      want: schema('output.hookSpecificOutput.permissionDecisionReason: a reason without permissionDecision decides nothing'),
    },
    // The other events take no permissionDecision ("—").
    { seam: PROMPT, result: specific('UserPromptSubmit', { permissionDecision: 'deny' }), want: schema('output.hookSpecificOutput.permissionDecision: not a UserPromptSubmit hookSpecificOutput field') },
    { seam: POST, result: specific('PostToolUse', { permissionDecision: 'deny' }), want: schema('output.hookSpecificOutput.permissionDecision: not a PostToolUse hookSpecificOutput field') },
    {
      seam: STOP,
      result: specific('Stop', { permissionDecision: 'deny' }),
      want: schema('output.hookSpecificOutput: Stop hooks have no hookSpecificOutput; use "decision": "block" with a "reason"'),
    },
    { seam: START, result: specific('SessionStart', { permissionDecision: 'deny' }), want: schema('output.hookSpecificOutput.permissionDecision: not a SessionStart hookSpecificOutput field') },
  ],
  'top-level decision "approve" / "block" (older form)': [
    { seam: PRE, result: json({ decision: 'approve', reason: 'fine' }), want: decision({ action: 'allow', reason: 'fine' }) },
    { seam: PRE, result: json({ decision: 'approve' }), want: decision({ action: 'allow' }) },
    { seam: PRE, result: json({ decision: 'block', reason: 'no network' }), want: decision({ action: 'deny', reason: 'no network' }) },
    {
      seam: PRE,
      result: json({ decision: 'block', reason: '' }),
      want: decision({ action: 'deny', reason: 'denied by a Claude Code hook ("decision": "block" without a reason)' }),
      codex: decision({ action: 'deny', reason: 'denied by a Codex hook ("decision": "block" without a reason)' }),
    },
    // permissionDecision is read first: the older form is only the fallback.
    {
      seam: PRE,
      result: json({ decision: 'approve', reason: 'old', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'new' } }),
      want: decision({ action: 'deny', reason: 'new' }),
    },
    // "approve" is PreToolUse's only ("—" elsewhere).
    { seam: PROMPT, result: json({ decision: 'approve' }), want: schema('output.decision: expected "block", got "approve"') },
    { seam: POST, result: json({ decision: 'approve' }), want: schema('output.decision: expected "block", got "approve"') },
    { seam: STOP, result: json({ decision: 'approve' }), want: schema('output.decision: expected "block", got "approve"') },
  ],
  'decision "block" + reason': [
    { seam: PROMPT, result: json({ decision: 'block', reason: 'looks like a secret' }), want: decision({ action: 'block', reason: 'looks like a secret' }) },
    { seam: POST, result: json({ decision: 'block', reason: 'output contains a token' }), want: decision({ action: 'block', reason: 'output contains a token' }) },
    { seam: STOP, result: json({ decision: 'block', reason: 'run the tests first' }), want: decision({ action: 'continue', reason: 'run the tests first' }) },
    { seam: START, result: json({ decision: 'block', reason: 'x' }), want: NO_DECISION('SessionStart') },
    // Without a reason: a fault on every seam but pre-tool (which has a stock one).
    { seam: PROMPT, result: json({ decision: 'block' }), want: schema('output.reason: "decision": "block" needs a non-empty reason (or a systemMessage)') },
    { seam: POST, result: json({ decision: 'block', reason: ' ' }), want: schema('output.reason: "decision": "block" needs a non-empty reason (or a systemMessage)') },
    { seam: STOP, result: json({ decision: 'block' }), want: schema('output.reason: "decision": "block" needs a non-empty reason (or a systemMessage)') },
    // A reason with no decision decides nothing.
    { seam: PRE, result: json({ reason: 'x' }), want: schema('output.reason: a reason without "decision" decides nothing (did you mean "decision": "block"?)') },
    { seam: STOP, result: json({ reason: 'x' }), want: schema('output.reason: a reason without "decision" decides nothing (did you mean "decision": "block"?)') },
  ],
  'hookSpecificOutput.additionalContext': [
    {
      seam: PRE,
      result: specific('PreToolUse', { additionalContext: 'x' }),
      want: schema('output.hookSpecificOutput.additionalContext: a tools/pre-execute decision carries no context; add it from a PostToolUse hook'),
    },
    { seam: PROMPT, result: specific('UserPromptSubmit', { additionalContext: 'see CONTRIBUTING.md\n' }), want: decision({ action: 'allow', additionalContext: 'see CONTRIBUTING.md' }) },
    { seam: POST, result: specific('PostToolUse', { additionalContext: 'lint: 2 warnings' }), want: decision({ action: 'accept', additionalContext: 'lint: 2 warnings' }) },
    {
      seam: STOP,
      result: specific('Stop', { additionalContext: 'x' }),
      want: schema('output.hookSpecificOutput: Stop hooks have no hookSpecificOutput; use "decision": "block" with a "reason"'),
    },
    { seam: START, result: specific('SessionStart', { additionalContext: 'project uses pnpm' }), want: decision({ additionalContext: 'project uses pnpm' }) },
    // An empty context is none.
    { seam: PROMPT, result: specific('UserPromptSubmit', { additionalContext: '  ' }), want: NONE },
    { seam: POST, result: specific('PostToolUse', { additionalContext: '' }), want: NONE },
    { seam: START, result: specific('SessionStart', { additionalContext: '\n' }), want: NONE },
    // A block wins, and the context is dropped.
    {
      seam: PROMPT,
      result: json({ decision: 'block', reason: 'no', hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'x' } }),
      want: decision({ action: 'block', reason: 'no' }),
    },
    { seam: POST, result: json({ decision: 'block', reason: 'no', hookSpecificOutput: { additionalContext: 'x' } }), want: decision({ action: 'block', reason: 'no' }) },
    // hookEventName must be the event's own.
    { seam: START, result: specific('UserPromptSubmit', { additionalContext: 'x' }), want: schema('output.hookSpecificOutput.hookEventName: expected "SessionStart" for agent/session-start, got "UserPromptSubmit"') },
  ],
  'continue: false + stopReason': [
    { seam: PRE, result: json({ continue: false, stopReason: 'out of budget' }), want: decision({ action: 'deny', reason: 'out of budget' }) },
    { seam: PROMPT, result: json({ continue: false, stopReason: 'session paused' }), want: decision({ action: 'block', reason: 'session paused' }) },
    { seam: POST, result: json({ continue: false, stopReason: 'halt' }), want: decision({ action: 'block', reason: 'halt' }) },
    { seam: STOP, result: json({ continue: false, stopReason: 'enough', decision: 'block', reason: 'x' }), want: decision({ action: 'stop' }) },
    {
      seam: START,
      result: json({ continue: false, stopReason: 'x' }),
      want: schema('output.continue: false cannot stop agent/session-start (a notification cannot block anything)'),
    },
    // continue: false wins over an allow.
    {
      seam: PRE,
      result: json({ continue: false, stopReason: 'stop', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }),
      want: decision({ action: 'deny', reason: 'stop' }),
    },
    // Without a stopReason: a stock reason.
    {
      seam: PROMPT,
      result: json({ continue: false, stopReason: ' ' }),
      want: decision({ action: 'block', reason: 'stopped by a Claude Code hook ("continue": false)' }),
      codex: decision({ action: 'block', reason: 'stopped by a Codex hook ("continue": false)' }),
    },
    { seam: PRE, result: json({ continue: false }), want: decision({ action: 'deny', reason: 'stopped by a Claude Code hook ("continue": false)' }), codex: decision({ action: 'deny', reason: 'stopped by a Codex hook ("continue": false)' }) },
    // continue: true stops nothing.
    { seam: PROMPT, result: json({ continue: true, stopReason: 'unused' }), want: NONE },
    { seam: PRE, result: json({ continue: true }), want: NONE },
  ],
  'systemMessage: the reason of a deny, block or stop that has none': [
    { seam: PRE, result: json({ decision: 'block', systemMessage: 'old form' }), want: decision({ action: 'deny', reason: 'old form' }) },
    { seam: PRE, result: json({ decision: 'approve', systemMessage: 'shown' }), want: decision({ action: 'allow', reason: 'shown' }) },
    { seam: PRE, result: json({ systemMessage: ' shown ', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } }), want: decision({ action: 'deny', reason: 'shown' }) },
    { seam: PRE, result: json({ systemMessage: 'shown', hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'why' } }), want: decision({ action: 'deny', reason: 'why' }) },
    { seam: PRE, result: json({ systemMessage: 'shown', hookSpecificOutput: { permissionDecision: 'ask' } }), want: decision({ action: 'ask', reason: 'shown' }) },
    { seam: PRE, result: json({ systemMessage: 'shown', hookSpecificOutput: { permissionDecision: 'allow' } }), want: decision({ action: 'allow', reason: 'shown' }) },
    { seam: PROMPT, result: json({ decision: 'block', systemMessage: 'no secrets in prompts' }), want: decision({ action: 'block', reason: 'no secrets in prompts' }) },
    { seam: POST, result: json({ decision: 'block', reason: '', systemMessage: 'shown' }), want: decision({ action: 'block', reason: 'shown' }) },
    { seam: STOP, result: json({ decision: 'block', systemMessage: 'keep going' }), want: decision({ action: 'continue', reason: 'keep going' }) },
    { seam: POST, result: json({ continue: false, systemMessage: 'halt' }), want: decision({ action: 'block', reason: 'halt' }) },
    { seam: POST, result: json({ continue: false, stopReason: 'own', systemMessage: 'halt' }), want: decision({ action: 'block', reason: 'own' }) },
    // Alone it decides nothing (it is only shown); suppressOutput is accepted and ignored.
    { seam: PROMPT, result: json({ systemMessage: 'checked', suppressOutput: true }), want: NONE },
    { seam: STOP, result: json({ systemMessage: 'checked' }), want: NONE },
    { seam: START, result: json({ suppressOutput: false }), want: NONE },
  ],
  'faults: JSON that is not one object, fields hookbox cannot honour': [
    { seam: PRE, result: ok('["deny"]'), want: fault('decode', 'stdout is JSON but not an object; on exit 0 the output must be one JSON object') },
    { seam: PROMPT, result: ok('  [] '), want: fault('decode', 'stdout is JSON but not an object; on exit 0 the output must be one JSON object') },
    { seam: POST, result: json({ allow: true }), want: schema('output.allow: not a Claude Code hook output field'), codex: schema('output.allow: not a Codex hook output field') },
    {
      seam: PRE,
      // Without the call it was asked about (a wasm codec), a rewrite cannot be read back.
      result: specific('PreToolUse', { permissionDecision: 'allow', updatedInput: { command: 'ls' } }),
      want: schema('output.hookSpecificOutput.updatedInput: a Claude Code hook run as wasm cannot rewrite (its call is not known to the codec); run it as a shell hook'),
      codex: schema('output.hookSpecificOutput.updatedInput: a Codex hook run as wasm cannot rewrite (its call is not known to the codec); run it as a shell hook'),
    },
    {
      seam: POST,
      result: json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'redacted' } }),
      want: schema('output.hookSpecificOutput.updatedToolOutput: tool output replacement from a protocol hook is not offered; block the result instead'),
    },
    {
      seam: PRE,
      result: json({ permissionDecisionReason: 'why' }),
      want: schema(
        'output.permissionDecisionReason: only meaningful inside hookSpecificOutput ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecisionReason": …}}); Claude Code would ignore it here, hookbox refuses it rather than drop it',
      ),
      codex: schema(
        'output.permissionDecisionReason: only meaningful inside hookSpecificOutput ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecisionReason": …}}); Codex would ignore it here, hookbox refuses it rather than drop it',
      ),
    },
    { seam: START, result: json({ hookSpecificOutput: null }), want: schema('output.hookSpecificOutput: expected an object') },
    { seam: PRE, result: json({ continue: 'no' }), want: schema('output.continue: Invalid input: expected boolean, received string') },
    {
      seam: STOP,
      result: json({ continue: 'no', stopReason: 1 }),
      want: schema('output.continue: Invalid input: expected boolean, received string; output.stopReason: Invalid input: expected string, received number'),
    },
  ],
};

const ROWS = Object.entries(TABLE).flatMap(([row, cells]) => cells.map((cell) => ({ row, ...cell })));

describe('protocol output → decision (the README table, one row per cell)', () => {
  it.each(ROWS.map((r) => [`${r.row}: ${r.seam} ${JSON.stringify(r.result)}`, r] as const))('%s', (_name, row) => {
    expect(protocolOutcome('claude-code', row.seam, row.result)).toStrictEqual(row.want);
    expect(protocolOutcome('codex', row.seam, row.result)).toStrictEqual(row.codex ?? row.want);
  });

  it('stdout that starts like JSON but does not parse is a decode fault quoting the parser', () => {
    for (const stdout of ['{"hookSpecificOutput": {', '[1,', '{decision: "block"}']) {
      for (const seam of [PRE, START] as const) {
        expect(protocolOutcome('claude-code', seam, ok(stdout))).toStrictEqual(
          fault('decode', expect.stringMatching(/^stdout starts like JSON but does not parse \(.+\); on exit 0 the output must be one JSON object$/)),
        );
      }
    }
  });
});

describe('long texts', () => {
  const long = (n: number) => 'x'.repeat(n);
  const clipped = `${long(2000)}…`;

  it('a reason, a context or a stderr note keeps 2,000 characters and marks the cut', () => {
    const cases: [ToolProtocol, SeamId, ProtocolResult, unknown][] = [
      ['claude-code', PRE, exit(2, long(2001)), decision({ action: 'deny', reason: clipped })],
      ['codex', PRE, specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: long(5000) }), decision({ action: 'deny', reason: clipped })],
      ['claude-code', PROMPT, json({ decision: 'block', reason: long(2001) }), decision({ action: 'block', reason: clipped })],
      ['claude-code', POST, specific('PostToolUse', { additionalContext: long(2001) }), decision({ action: 'accept', additionalContext: clipped })],
      ['claude-code', STOP, json({ continue: false, stopReason: long(2001) }), decision({ action: 'stop' })],
      ['claude-code', PRE, json({ continue: false, stopReason: long(2001) }), decision({ action: 'deny', reason: clipped })],
      ['claude-code', PRE, json({ decision: 'block', systemMessage: long(2001) }), decision({ action: 'deny', reason: clipped })],
      [
        'claude-code',
        POST,
        exit(1, long(2001)),
        fault('plugin-error', `exited with code 1: ${clipped} (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)`),
      ],
      ['claude-code', START, exit(2, long(2001)), fault('plugin-error', `exit code 2 cannot block agent/session-start (a notification): ${clipped}`)],
      // Plain stdout is context on these two seams, clipped as a JSON additionalContext is.
      ['claude-code', PROMPT, ok(long(2001)), decision({ action: 'allow', additionalContext: clipped })],
      ['codex', START, ok(long(5000)), decision({ additionalContext: clipped })],
    ];
    for (const [protocol, seam, result, want] of cases) expect(protocolOutcome(protocol, seam, result)).toStrictEqual(want);
  });

  it('exactly 2,000 characters are kept as they are', () => {
    expect(protocolOutcome('claude-code', PRE, exit(2, long(2000)))).toStrictEqual(decision({ action: 'deny', reason: long(2000) }));
    expect(protocolOutcome('claude-code', PROMPT, specific('UserPromptSubmit', { additionalContext: long(2000) }))).toStrictEqual(
      decision({ action: 'allow', additionalContext: long(2000) }),
    );
    expect(protocolOutcome('claude-code', START, ok(long(2000)))).toStrictEqual(decision({ additionalContext: long(2000) }));
  });
});

describe('protocolNotices: the systemMessage shown to the user', () => {
  it.each([
    ['a JSON answer with a systemMessage, trimmed', ok('  {"systemMessage": "  lint found 2 issues \\n", "decision": "block", "reason": "x"}\n'), ['lint found 2 issues']],
    ['whatever the decision, even one the seam refuses', json({ systemMessage: 'shown', updatedInput: {} }), ['shown']],
    ['a long one, clipped', json({ systemMessage: 'y'.repeat(2001) }), [`${'y'.repeat(2000)}…`]],
    ['none in the answer', json({ decision: 'block', reason: 'x' }), []],
    ['an empty one', json({ systemMessage: ' \n' }), []],
    ['one that is not a string', json({ systemMessage: 42 }), []],
    ['plain text', ok('systemMessage: hi'), []],
    ['a JSON array', ok('[{"systemMessage": "hi"}]'), []],
    ['JSON that does not parse', ok('{"systemMessage": "hi"'), []],
    ['exit 2 (JSON is honoured only on exit 0)', exit(2, 'no', JSON.stringify({ systemMessage: 'hi' })), []],
    ['exit 1', exit(1, '', JSON.stringify({ systemMessage: 'hi' })), []],
  ] as const)('%s', (_name, result, want) => {
    expect(protocolNotices(result)).toStrictEqual(want);
  });
});

describe('a PreToolUse updatedInput read back onto the call (import-claude / import-codex shell hooks)', () => {
  const bash = { toolName: 'bash', arguments: { command: 'echo A > out.txt' }, cwd: '/work/project' };
  const write = { toolName: 'write_file', arguments: { path: 'a.txt', content: 'x' }, cwd: '/work/project' };
  const allowWith = (updatedInput: Record<string, unknown>, permissionDecision = 'allow') => specific('PreToolUse', { permissionDecision, updatedInput });

  it('allow + updatedInput → allow {arguments} in hookbox\'s vocabulary, for both agents', () => {
    for (const protocol of ['claude-code', 'codex'] as const) {
      expect(protocolOutcome(protocol, PRE, allowWith({ command: 'echo B > out.txt', description: 'd' }), bash)).toStrictEqual({
        type: 'decision',
        decision: { action: 'allow', arguments: { command: 'echo B > out.txt' } },
      });
    }
    // Claude Code's timeout is hookbox's timeoutMs; a write's absolute path inside the project reads back relative.
    expect(protocolOutcome('claude-code', PRE, allowWith({ command: 'ls', timeout: 5000 }), bash)).toMatchObject({ decision: { arguments: { command: 'ls', timeoutMs: 5000 } } });
    expect(protocolOutcome('claude-code', PRE, allowWith({ file_path: '/work/project/b.txt', content: 'y' }), write)).toMatchObject({ decision: { arguments: { path: 'b.txt', content: 'y' } } });
  });

  it('an input that is not the same tool\'s, or updatedInput with ask or no decision, is a schema fault naming why', () => {
    expect(protocolOutcome('claude-code', PRE, allowWith({ cmd: 'ls' }), bash)).toStrictEqual(
      schema('output.hookSpecificOutput.updatedInput: not a Bash input hookbox reads back as bash (for bash it needs a "command" string)'),
    );
    expect(protocolOutcome('claude-code', PRE, allowWith({ command: 'ls' }, 'ask'), bash)).toMatchObject({ type: 'fault', fault: { kind: 'schema', message: expect.stringContaining('needs permissionDecision "allow" (got "ask")') } });
    expect(protocolOutcome('claude-code', PRE, specific('PreToolUse', { updatedInput: { command: 'ls' } }), bash)).toMatchObject({ type: 'fault', fault: { kind: 'schema' } });
  });
});
