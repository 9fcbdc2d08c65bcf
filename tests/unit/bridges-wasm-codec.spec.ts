/**
 * The runner codec of a wasm hook that speaks Claude Code's or Codex's
 * protocol (host/bridges/wasm-codec.ts), through its HookCodec API: a seam
 * call is encoded as the agent's JSON in UTF-8, and the export's reply is
 * read as a shell hook's run — its output is stdout, a failed call's return
 * code the exit code and its `error_set` text stderr — with every other
 * fault kept as it is. Outcomes are compared whole.
 * (tests/integration/bridges.spec.ts runs the same codec on a real wasm hook.)
 */
import { describe, expect, it } from 'vitest';
import type { ToolProtocol } from '../../host/bridges/protocol.ts';
import { protocolCodec } from '../../host/bridges/wasm-codec.ts';
import type { ExportReply } from '../../host/runner/index.ts';
import type { SeamId } from '../../host/seams/index.ts';

const SESSION = { id: 's-1', turn: 2, step: 1, cwd: '/work/project' } as const;
const bytes = (text: string) => new TextEncoder().encode(text);
const output = (text: string | null): ExportReply => ({ output: text === null ? null : bytes(text) });
const failed = (fault: { kind: string; message: string }, exit?: { code: number; errorText?: string }, out: string | null = null): ExportReply =>
  ({ output: out === null ? null : bytes(out), fault, ...(exit !== undefined && { exit }) }) as ExportReply;

const NONE = { type: 'no-opinion' } as const;
const decision = (value: object) => ({ type: 'decision', decision: value });
const fault = (kind: string, message: string) => ({ type: 'fault', fault: { kind, message } });

/** What the runner reports for a call whose export returned non-zero or set an error. */
const CALL_FAILED = { kind: 'plugin-error', message: 'no prompts here' };
const CC_EXIT2_NO_STDERR = 'blocked by a Claude Code hook (exit code 2, nothing on stderr)';

interface Row {
  readonly name: string;
  readonly seam: SeamId;
  readonly reply: ExportReply;
  readonly want: unknown;
  readonly codex?: unknown;
}

const ROWS: readonly Row[] = [
  {
    name: 'output is stdout: a permissionDecision deny',
    seam: 'tools/pre-execute',
    reply: output(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'wasm says no' } })),
    want: decision({ action: 'deny', reason: 'wasm says no' }),
  },
  { name: 'output as plain UTF-8 text: SessionStart context', seam: 'agent/session-start', reply: output('ünïcode ✓\n'), want: decision({ additionalContext: 'ünïcode ✓' }) },
  // On UserPromptSubmit any text would be context: no output must read as none at all.
  { name: 'no output: no opinion', seam: 'agent/prompt-submit', reply: output(null), want: NONE },
  { name: 'empty output: no opinion', seam: 'agent/prompt-submit', reply: output(''), want: NONE },
  {
    name: 'output that starts like JSON but is not: decode',
    seam: 'tools/post-execute',
    reply: output('[1, 2]'),
    want: fault('decode', 'stdout is JSON but not an object; on exit 0 the output must be one JSON object'),
  },
  {
    name: 'output that is not UTF-8: decode, with its size',
    seam: 'agent/prompt-submit',
    reply: { output: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
    want: fault('decode', 'output is not UTF-8 text (4 bytes)'),
  },
  {
    name: 'return code 2 + error_set: a block with the text as the reason',
    seam: 'agent/prompt-submit',
    reply: failed(CALL_FAILED, { code: 2, errorText: 'no prompts here\n' }),
    want: decision({ action: 'block', reason: 'no prompts here' }),
  },
  {
    name: 'return code 2 + error_set on Stop: continue with the text',
    seam: 'agent/turn-continuation',
    reply: failed(CALL_FAILED, { code: 2, errorText: 'run the tests' }),
    want: decision({ action: 'continue', reason: 'run the tests' }),
  },
  {
    name: 'return code 2 ignores any output',
    seam: 'tools/pre-execute',
    reply: failed(CALL_FAILED, { code: 2, errorText: 'no' }, JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow' } })),
    want: decision({ action: 'deny', reason: 'no' }),
  },
  {
    name: 'return code 2 without error_set: CC deny with a stock reason, Codex plugin-error',
    seam: 'tools/pre-execute',
    reply: failed({ kind: 'plugin-error', message: 'returned 2' }, { code: 2 }),
    want: decision({ action: 'deny', reason: CC_EXIT2_NO_STDERR }),
    codex: fault('plugin-error', 'exited with code 2 but wrote no reason to stderr (Codex treats that as a failed hook)'),
  },
  {
    name: 'return code 2 on SessionStart: cannot block',
    seam: 'agent/session-start',
    reply: failed(CALL_FAILED, { code: 2, errorText: 'no' }),
    want: fault('plugin-error', 'exit code 2 cannot block agent/session-start (a notification): no'),
  },
  {
    name: 'another return code: plugin-error naming it and the error_set text',
    seam: 'tools/post-execute',
    reply: failed(CALL_FAILED, { code: 1, errorText: 'boom' }),
    want: fault('plugin-error', "exited with code 1: boom (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
    codex: fault('plugin-error', "exited with code 1: boom (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
  },
  {
    name: 'another return code without error_set',
    seam: 'agent/turn-continuation',
    reply: failed({ kind: 'plugin-error', message: 'returned 3' }, { code: 3 }),
    want: fault('plugin-error', "exited with code 3 (a non-blocking error in Claude Code; hookbox applies the hook's fail policy)"),
    codex: fault('plugin-error', "exited with code 3 (a non-blocking error in Codex; hookbox applies the hook's fail policy)"),
  },
  {
    name: 'error_set with return code 0: the plugin-error stays (Extism lost the output)',
    seam: 'tools/pre-execute',
    reply: failed(CALL_FAILED, { code: 0, errorText: 'no prompts here' }, JSON.stringify({ decision: 'approve' })),
    want: fault('plugin-error', 'no prompts here'),
  },
  {
    name: 'any other fault stays what it is',
    seam: 'tools/pre-execute',
    reply: failed({ kind: 'timeout', message: 'call exceeded 1000 ms' }),
    want: fault('timeout', 'call exceeded 1000 ms'),
  },
  {
    name: 'a fault beside output: the fault, not the output',
    seam: 'agent/session-start',
    reply: failed({ kind: 'memory', message: 'out of memory' }, undefined, 'context'),
    want: fault('memory', 'out of memory'),
  },
];

describe('protocolCodec: a wasm hook speaking an agent protocol', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('decode: %s', (_name, row) => {
    expect(protocolCodec('claude-code').decode(row.seam, row.reply)).toStrictEqual(row.want);
    expect(protocolCodec('codex').decode(row.seam, row.reply)).toStrictEqual(row.codex ?? row.want);
  });

  it.each([
    [
      'claude-code',
      {
        session_id: 's-1',
        transcript_path: null,
        cwd: '/work/project',
        permission_mode: 'default',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'déployer ✓',
      },
    ],
    [
      'codex',
      {
        session_id: 's-1',
        turn_id: 'turn-2',
        transcript_path: null,
        cwd: '/work/project',
        model: 'hookbox',
        permission_mode: 'default',
        hook_event_name: 'UserPromptSubmit',
        prompt: 'déployer ✓',
      },
    ],
  ] as const)('encode (%s): the agent JSON in UTF-8, transcript_path null', (protocol: ToolProtocol, want) => {
    const codec = protocolCodec(protocol);
    expect(codec.name).toBe(protocol);
    const encoded = codec.encode({ seam: 'agent/prompt-submit', payload: { content: 'déployer ✓', source: 'cli' }, next: { action: 'allow' }, session: SESSION });
    expect(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(encoded))).toStrictEqual(want);
  });
});
