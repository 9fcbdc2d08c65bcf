import type { ListenerOutcome } from '../events/index.ts';
import { type DecisionOf, type HookFaultKind, type SeamId, hookFault } from '../seams/index.ts';
import { PROTOCOL_LABEL, type ProtocolResult, type ToolProtocol } from './protocol.ts';
import { type ProtocolOutput, checkOutputFields } from './protocol-fields.ts';
import { type ProtocolCall, rewrittenArguments } from './protocol-rewrite.ts';

type Outcome<S extends SeamId> = ListenerOutcome<DecisionOf<S>>;

/** Longest stderr / reason text carried into a decision or a fault message. */
const MAX_TEXT = 2000;

/**
 * Maps what a Claude Code / Codex hook produced onto the seam's typed
 * decision, as each tool documents it:
 *
 * - exit 2: a blocking error with stderr as the reason (stdout ignored):
 *   PreToolUse / PermissionRequest → deny, UserPromptSubmit / PostToolUse /
 *   PreCompact → block, Stop / SubagentStop → `continue {reason}`;
 *   SessionStart, SubagentStart, Notification and SessionEnd cannot block
 *   (a fault, logged).
 * - any other non-zero exit: a non-blocking error in those tools, a
 *   `plugin-error` fault here (the hook's fail policy decides).
 * - exit 0: stdout is JSON (`decision`/`reason`, `continue`/`stopReason`,
 *   `hookSpecificOutput`…), or plain text (context for UserPromptSubmit and
 *   SessionStart, ignored elsewhere), or empty (no opinion). Malformed JSON
 *   is a `decode` fault; a field hookbox cannot honour — `updatedInput`
 *   anywhere but PreToolUse with allow, a flat `permissionDecision`, an
 *   unknown field — is a `schema` fault naming it, never silently dropped
 *   (the fields each event takes: protocol-fields.ts). PreToolUse's
 *   `updatedInput` is read back onto `call` as `allow {arguments}`.
 *
 * Never throws: everything a hook prints is untrusted.
 */
export function protocolOutcome<S extends SeamId>(protocol: ToolProtocol, seam: S, result: ProtocolResult, call?: ProtocolCall): Outcome<S> {
  if (result.exitCode === 2) return blockingExit(protocol, seam, result.stderr);
  if (result.exitCode !== 0) {
    return fault(
      'plugin-error',
      `exited with code ${result.exitCode}${stderrNote(result.stderr)} (a non-blocking error in ${PROTOCOL_LABEL[protocol]}; hookbox applies the hook's fail policy)`,
    );
  }
  const text = result.stdout.trim();
  if (text === '') return { type: 'no-opinion' };
  // Codex's rule, which Claude Code's behaviour matches: output that starts like JSON must be JSON.
  if (!text.startsWith('{') && !text.startsWith('[')) return plainStdout(seam, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fault('decode', `stdout starts like JSON but does not parse (${(error as Error).message}); on exit 0 the output must be one JSON object`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fault('decode', 'stdout is JSON but not an object; on exit 0 the output must be one JSON object');
  }
  return jsonOutput(protocol, seam, value as Record<string, unknown>, call);
}

function jsonOutput<S extends SeamId>(protocol: ToolProtocol, seam: S, raw: Record<string, unknown>, call: ProtocolCall | undefined): Outcome<S> {
  const checked = checkOutputFields(protocol, seam, raw);
  if ('problem' in checked) return fault('schema', checked.problem);
  const { output } = checked;
  if (output.continue === false) return stopProcessing(protocol, seam, nonEmpty(output.stopReason) ?? output.systemMessage);
  return decide(protocol, seam, output, call);
}

function decide<S extends SeamId>(protocol: ToolProtocol, seam: S, output: ProtocolOutput, call: ProtocolCall | undefined): Outcome<S> {
  const specific = output.hookSpecificOutput;
  const context = nonEmpty(specific?.additionalContext);
  const block = output.decision === 'block';
  if (!block && output.decision !== 'approve' && output.reason !== undefined) {
    return fault('schema', 'output.reason: a reason without "decision" decides nothing (did you mean "decision": "block"?)');
  }
  // A block whose only explanation is the message shown to the user: that message is the reason.
  const blockReason = nonEmpty(output.reason) ?? nonEmpty(output.systemMessage);
  if (block && blockReason === undefined && seam !== 'tools/pre-execute') {
    return fault('schema', 'output.reason: "decision": "block" needs a non-empty reason (or a systemMessage)');
  }
  return JSON_DECISION[seam]({ protocol, output, block, blockReason, context, call }) as Outcome<S>;
}

/** What an exit-0 JSON output decides, once its common fields are checked. */
interface JsonAnswer {
  readonly protocol: ToolProtocol;
  readonly output: ProtocolOutput;
  readonly block: boolean;
  readonly blockReason: string | undefined;
  readonly context: string | undefined;
  /** The tool call asked about (a pre-tool rewrite is read back onto it); absent where the caller has none. */
  readonly call: ProtocolCall | undefined;
}

/** Each seam's reading of a JSON output (keyed by every seam: a new one must be mapped). */
const JSON_DECISION: { readonly [S in SeamId]: (answer: JsonAnswer) => Outcome<S> } = {
  'tools/pre-execute': ({ protocol, output, call }) => preTool(protocol, output, call),
  'agent/prompt-submit': ({ block, blockReason, context }) => {
    if (block) return decision({ action: 'block', reason: blockReason });
    return context === undefined ? { type: 'no-opinion' } : decision({ action: 'allow', additionalContext: context });
  },
  'tools/post-execute': ({ block, blockReason, context }) => {
    if (block) return decision({ action: 'block', reason: blockReason });
    return context === undefined ? { type: 'no-opinion' } : decision({ action: 'accept', additionalContext: context });
  },
  // Stop blocked = the agent keeps working, with the reason as its next instruction.
  'agent/turn-continuation': ({ block, blockReason }) => (block ? decision({ action: 'continue', reason: blockReason }) : { type: 'no-opinion' }),
  'agent/session-start': ({ context }) => (context === undefined ? { type: 'no-opinion' } : decision({ additionalContext: context })),
  'tools/permission-request': ({ protocol, output }) => permissionRequest(protocol, output),
  'agent/subagent-start': ({ context }) => (context === undefined ? { type: 'no-opinion' } : decision({ additionalContext: context })),
  // SubagentStop blocked = the subagent keeps working, as Stop.
  'agent/subagent-stop': ({ block, blockReason }) => (block ? decision({ action: 'continue', reason: blockReason }) : { type: 'no-opinion' }),
  'agent/pre-compact': ({ block, blockReason }) => (block ? decision({ action: 'block', reason: blockReason }) : { type: 'no-opinion' }),
  // Notifications: the JSON is checked (protocol-fields.ts), it decides nothing.
  'agent/notification': () => ({ type: 'no-opinion' }),
  'agent/session-end': () => ({ type: 'no-opinion' }),
};

/** PermissionRequest's `hookSpecificOutput.decision`: the hook answers for the person, or says nothing (the person is asked). */
function permissionRequest(protocol: ToolProtocol, output: ProtocolOutput): Outcome<'tools/permission-request'> {
  const answer = output.hookSpecificOutput?.decision;
  if (answer === undefined) return { type: 'no-opinion' };
  const message = nonEmpty(answer.message) ?? nonEmpty(output.systemMessage);
  if (answer.behavior === 'allow') return decision({ action: 'allow', ...(message !== undefined && { reason: message }) });
  return decision({ action: 'deny', reason: message ?? `denied by a ${PROTOCOL_LABEL[protocol]} hook (behavior "deny" without a message)` });
}

function preTool(protocol: ToolProtocol, output: ProtocolOutput, call: ProtocolCall | undefined): Outcome<'tools/pre-execute'> {
  const specific = output.hookSpecificOutput;
  const permission = specific?.permissionDecision;
  const label = PROTOCOL_LABEL[protocol];
  // Hooks often explain a deny only in the message for the user: it is the reason then.
  const shown = nonEmpty(output.systemMessage);
  if (specific?.updatedInput !== undefined) return rewrite(protocol, call, specific.updatedInput, permission, nonEmpty(specific.permissionDecisionReason) ?? shown);
  if (permission !== undefined) {
    const reason = nonEmpty(specific?.permissionDecisionReason) ?? shown;
    if (permission === 'allow') return decision({ action: 'allow', ...(reason !== undefined && { reason }) });
    if (permission === 'ask') return decision({ action: 'ask', ...(reason !== undefined && { reason }) });
    if (permission === 'deny') return decision({ action: 'deny', reason: reason ?? `denied by a ${label} hook (permissionDecision "deny" without a reason)` });
    return fault('schema', `output.hookSpecificOutput.permissionDecision: expected "allow", "deny" or "ask", got ${JSON.stringify(permission)}`);
  }
  if (specific?.permissionDecisionReason !== undefined) {
    return fault('schema', 'output.hookSpecificOutput.permissionDecisionReason: a reason without permissionDecision decides nothing');
  }
  // The older top-level form: "approve" = allow, "block" = deny.
  const reason = nonEmpty(output.reason) ?? shown;
  if (output.decision === 'approve') return decision({ action: 'allow', ...(reason !== undefined && { reason }) });
  if (output.decision === 'block') return decision({ action: 'deny', reason: reason ?? `denied by a ${label} hook ("decision": "block" without a reason)` });
  return { type: 'no-opinion' };
}

/**
 * `updatedInput` with `permissionDecision: "allow"` → `allow {arguments}`
 * (hookbox's rewrite, re-gated on the final arguments); with anything else
 * hookbox has no decision for it (an ask about a rewritten call is not
 * offered), so it is a `schema` fault naming why.
 */
function rewrite(protocol: ToolProtocol, call: ProtocolCall | undefined, updatedInput: Record<string, unknown>, permission: string | undefined, reason: string | undefined): Outcome<'tools/pre-execute'> {
  if (permission !== 'allow') {
    return fault('schema', `output.hookSpecificOutput.updatedInput: a rewrite needs permissionDecision "allow" (got ${permission === undefined ? 'none' : JSON.stringify(permission)}); hookbox re-asks every gate on the rewritten call`);
  }
  if (call === undefined) return fault('schema', `output.hookSpecificOutput.updatedInput: a ${PROTOCOL_LABEL[protocol]} hook run as wasm cannot rewrite (its call is not known to the codec); run it as a shell hook`);
  const mapped = rewrittenArguments(protocol, call, updatedInput);
  if ('problem' in mapped) return fault('schema', mapped.problem);
  return decision({ action: 'allow', arguments: mapped.arguments, ...(reason !== undefined && { reason }) });
}

/**
 * The user-facing text of a hook's answer: `systemMessage` of an exit-0 JSON
 * output (Claude Code shows it to the user whatever the decision). Empty for
 * anything else; the caller shows and records it (sanitized), never drops it.
 */
export function protocolNotices(result: ProtocolResult): string[] {
  if (result.exitCode !== 0) return [];
  const text = result.stdout.trim();
  if (!text.startsWith('{')) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return [];
    const message = (value as Record<string, unknown>).systemMessage;
    return typeof message === 'string' && message.trim() !== '' ? [clip(message.trim())] : [];
  } catch {
    return [];
  }
}

/** `continue: false`: the tool stops the agent; hookbox applies the seam's most restrictive decision. */
function stopProcessing<S extends SeamId>(protocol: ToolProtocol, seam: S, stopReason: string | undefined): Outcome<S> {
  const reason = nonEmpty(stopReason) ?? `stopped by a ${PROTOCOL_LABEL[protocol]} hook ("continue": false)`;
  return restrictive(seam, reason, { action: 'stop' }, () =>
    fault('schema', `output.continue: false cannot stop ${seam} (a notification cannot block anything)`),
  );
}

/**
 * The seam's restrictive decision for a tool hook that said stop or block:
 * deny a tool call or a permission, block a prompt, a result or a
 * compaction; what it means for a turn or a subagent is the caller's, and
 * the notifications (which cannot be blocked) are the caller's too.
 */
function restrictive<S extends SeamId>(
  seam: S,
  reason: string,
  onContinuation: DecisionOf<'agent/turn-continuation'>,
  onNotification: () => Outcome<S>,
): Outcome<S> {
  const cannotBlock = onNotification as () => Outcome<never>;
  const restricted: { readonly [T in SeamId]: () => Outcome<T> } = {
    'tools/pre-execute': () => decision({ action: 'deny', reason }),
    'tools/permission-request': () => decision({ action: 'deny', reason }),
    'agent/prompt-submit': () => decision({ action: 'block', reason }),
    'tools/post-execute': () => decision({ action: 'block', reason }),
    'agent/pre-compact': () => decision({ action: 'block', reason }),
    'agent/turn-continuation': () => decision(onContinuation),
    'agent/subagent-stop': () => decision(onContinuation),
    'agent/session-start': cannotBlock,
    'agent/subagent-start': cannotBlock,
    'agent/notification': cannotBlock,
    'agent/session-end': cannotBlock,
  };
  return restricted[seam]() as Outcome<S>;
}

function blockingExit<S extends SeamId>(protocol: ToolProtocol, seam: S, stderr: string): Outcome<S> {
  let reason = clip(stderr.trim());
  if (reason === '') {
    if (protocol === 'codex') return fault('plugin-error', 'exited with code 2 but wrote no reason to stderr (Codex treats that as a failed hook)');
    reason = `blocked by a ${PROTOCOL_LABEL[protocol]} hook (exit code 2, nothing on stderr)`;
  }
  return restrictive(seam, reason, { action: 'continue', reason }, () =>
    fault('plugin-error', `exit code 2 cannot block ${seam} (a notification): ${reason}`),
  );
}

/** Plain (non-JSON) stdout on exit 0: context where the tool documents it (clipped as a JSON context is), ignored elsewhere. */
function plainStdout<S extends SeamId>(seam: S, text: string): Outcome<S> {
  if (seam === 'agent/prompt-submit') return decision({ action: 'allow', additionalContext: clip(text) });
  if (seam === 'agent/session-start') return decision({ additionalContext: clip(text) });
  return { type: 'no-opinion' };
}

function decision<D>(value: object): ListenerOutcome<D> {
  return { type: 'decision', decision: value as D };
}

function fault<D>(kind: HookFaultKind, message: string): ListenerOutcome<D> {
  return { type: 'fault', fault: hookFault(kind, message) };
}

function nonEmpty(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : clip(trimmed);
}

function stderrNote(stderr: string): string {
  const text = clip(stderr.trim());
  return text === '' ? '' : `: ${text}`;
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
