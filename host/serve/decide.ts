import type { AgentAnswer, AgentBridge, AgentSeamEvent } from '../agents/index.ts';
import { isUnmappedCall } from '../agents/tool-table.ts';
import type { SeamBus } from '../events/index.ts';
import { CONTINUE_REASON, continuationCapReason, unappliedRewriteText } from '../loop/reactions.ts';
import { deniedOutcome, postToolOutcome, promptOutcome, toolResultEvent } from '../loop/seam-outcome.ts';
import { rewriteEvent, rewriteOf } from '../loop/tool-rewrite.ts';
import { type DecisionOf, SEAMS, type SeamId, joinContext } from '../seams/index.ts';
import type { CopyTable } from './copy-table.ts';
import { LIFECYCLE_STEPS } from './lifecycle-steps.ts';
import { takePendingCall, withRewriteNote } from './rewritten-call.ts';
import type { ServedSession } from './served-session.ts';
import type { SessionTable } from './session-table.ts';

/** What one request came to, for the answer and the request log line. */
export interface Decided {
  readonly answer: AgentAnswer;
  /** The agent's event name, when it could be read. */
  readonly event?: string;
  readonly sessionId?: string;
  /** A short word for the log: allow, deny, ask, block, continue, stop, context, pass, invalid, error. */
  readonly decision: string;
}

/** What deciding needs of a bridge (an in-process SDK adapter has no settings to set up). */
export type DecidingBridge = Pick<AgentBridge, 'name' | 'label' | 'canReplace' | 'toSeam' | 'answer' | 'failClosed' | 'rewriteBack' | 'notesRewrittenCall'> & {
  /**
   * Whether the bridge's answer carries a pre-tool rewrite (`allow {arguments}`)
   * to the agent, which then runs the rewritten call. Unset: a rewritten call is
   * denied ("could not be applied"), never run unrewritten.
   */
  readonly canRewriteToolInput?: boolean;
};

export interface DeciderOptions {
  readonly bus: SeamBus;
  readonly sessions: SessionTable;
  /** The continuation loop guard: times one turn may be forced on by hooks. */
  readonly maxContinuations: number;
  /** Log a replaced result's full original (the operator's `log.keepReplacedOriginals`); else only its length and digest. */
  readonly keepReplacedOriginals?: boolean;
  /** The server's table of events an agent sends in two formats (copy-table.ts): their hooks run once. Absent: every call runs them. */
  readonly copies?: CopyTable;
}

/**
 * Decides one agent hook event: bridge → seam call → the shared `SeamBus` →
 * (the server's adjustments: continuation cap, rewrites the agent cannot
 * take) → the agent's answer; every step recorded in the agent session's
 * log with the loop's event types, so `hookbox replay` reads it. Never
 * throws: a host error becomes the agent's fail-closed answer. `named`: the
 * event as the command line or URL names it (an agent whose events carry none).
 */
export async function decideAgentEvent(bridge: DecidingBridge, input: unknown, options: DeciderOptions, named?: string): Promise<Decided> {
  const parsed = bridge.toSeam(input, named);
  if (parsed.kind === 'invalid') {
    return { answer: bridge.failClosed(parsed.event, parsed.message), ...(parsed.event !== undefined && { event: parsed.event }), decision: 'invalid' };
  }
  if (parsed.kind === 'pass') {
    return { answer: parsed.answer, event: parsed.event, ...(parsed.sessionId !== undefined && { sessionId: parsed.sessionId }), decision: 'pass' };
  }
  const event = parsed.event;
  const base = { event: event.event, sessionId: event.sessionId };
  let session: ServedSession | undefined;
  try {
    const source = event.seam === 'agent/session-start' ? (event.payload as { source: 'startup' }).source : 'startup';
    session = options.sessions.acquire(bridge.name, event.sessionId, event.cwd, source).session;
    session.inFlight += 1;
    const bus = options.copies?.dispatcher(options.bus, bridge.name, event.sessionId) ?? options.bus;
    if (session.fresh && event.seam !== 'agent/session-start') await synthesizeSessionStart(session, bus);
    session.fresh = false;
    let { decision, word } = await decideInSession(bridge, event, session, options, bus);
    // One agent event that stands for several calls (a patch touching several files):
    // each is decided and folded with the seam's own composition, so the strictest wins.
    for (const extra of parsed.more ?? []) {
      if (extra.seam !== event.seam) throw new Error(`${bridge.name}: an event's extra calls must be on its seam (${event.seam}), got ${extra.seam}`);
      const other = await decideInSession(bridge, extra, session, options, bus);
      const folded = SEAMS[event.seam].compose(decision as never, other.decision as never) as DecisionOf<SeamId>;
      if (folded !== decision) ({ decision, word } = { decision: folded, word: other.word });
    }
    // A tool the agent's table does not list is decided under its raw name; the request log line says so.
    const unmapped = [event, ...(parsed.more ?? [])].find((call) => isToolSeam(call) && isUnmappedCall(call.payload as { arguments: Record<string, unknown> }));
    if (unmapped !== undefined) word = `${word} (unmapped tool ${(unmapped.payload as { toolName: string }).toolName})`;
    return { answer: bridge.answer(event, decision), ...base, decision: word };
  } catch (error) {
    return { answer: bridge.failClosed(event.event, `host error: ${(error as Error).message}`), ...base, decision: 'error' };
  } finally {
    if (session !== undefined) {
      session.inFlight -= 1;
      session.lastUsed = Date.now();
    }
  }
}

/**
 * The agent's first event for a session was not SessionStart (Claude Code
 * sends SessionStart to command hooks only): fire session-start now, so
 * hooks see the session begin, and keep its context for the first prompt.
 */
async function synthesizeSessionStart(session: ServedSession, bus: Dispatcher): Promise<void> {
  const { decision, invocations } = await bus.dispatch('agent/session-start', { source: 'startup' }, session.info());
  session.recordInvocations(invocations);
  // Written to the log with the prompt's context, when it is handed over.
  if (decision.additionalContext !== undefined) session.undelivered = decision.additionalContext;
}

function isToolSeam(event: AgentSeamEvent): boolean {
  return event.seam === 'tools/pre-execute' || event.seam === 'tools/post-execute';
}

interface SessionDecision<S extends SeamId> {
  readonly decision: DecisionOf<S>;
  readonly word: string;
}

/** What deciding needs of the bus: its dispatch (the bus itself, or the copy table's in front of it). */
type Dispatcher = Pick<SeamBus, 'dispatch'>;

/** What a seam's step in a served session works with. */
interface SessionStep {
  readonly bridge: DecidingBridge;
  readonly session: ServedSession;
  readonly options: DeciderOptions;
  readonly bus: Dispatcher;
}

/** One seam's part of deciding an agent event in its session. */
type SeamStep<S extends SeamId> = (event: AgentSeamEvent<S>, step: SessionStep) => Promise<SessionDecision<S>>;

async function decideInSession(bridge: DecidingBridge, event: AgentSeamEvent, session: ServedSession, options: DeciderOptions, bus: Dispatcher): Promise<SessionDecision<SeamId>> {
  const step = SEAM_STEPS[event.seam] as SeamStep<SeamId>;
  return step(event, { bridge, session, options, bus });
}

/** Each seam's step, keyed by every seam (a new seam fails tsc here until it is handled). */
const SEAM_STEPS: { readonly [S in SeamId]: SeamStep<S> } = {
  ...LIFECYCLE_STEPS,
  'agent/session-start': async (event, { session, bus }) => {
    const payload = event.payload;
    if (session.turn > 0 || session.turnOpen) {
      session.log.append({ type: 'session/start', sessionId: session.id, cwd: session.cwd, source: payload.source, at: new Date().toISOString() });
    }
    const { decision, invocations } = await bus.dispatch('agent/session-start', payload, session.info());
    session.recordInvocations(invocations);
    if (decision.additionalContext !== undefined) session.addContext(decision.additionalContext);
    return { decision, word: decision.additionalContext === undefined ? 'none' : 'context' };
  },
  'agent/prompt-submit': async (event, { bridge, session, bus }) => {
    const payload = event.payload;
    session.openTurn();
    const { decision: raw, invocations } = await bus.dispatch('agent/prompt-submit', payload, session.info());
    session.recordInvocations(invocations);
    let decision: DecisionOf<'agent/prompt-submit'> = raw;
    if (raw.action === 'allow' && raw.content !== undefined && raw.content !== payload.content && !bridge.canReplace.prompt) {
      // Never let the original through silently when a hook rewrote it (maybe for safety).
      decision = {
        action: 'block',
        reason: `a hookbox hook rewrote this prompt and ${bridge.label} cannot take a rewritten prompt, so it was not sent. The rewritten prompt: ${raw.content}`,
      };
    }
    // A synthesized session start's context reaches the model with the first prompt it lets through.
    if (decision.action !== 'block' && session.undelivered !== undefined) {
      decision = { ...decision, additionalContext: joinContext(session.undelivered, decision.additionalContext) };
      session.undelivered = undefined;
    }
    for (const recorded of promptOutcome(session.turn, payload.content, decision)) session.log.append(recorded);
    if (decision.action === 'block') {
      session.endTurn('rejected', decision.reason);
      return { decision, word: 'block' };
    }
    return { decision, word: decision.additionalContext === undefined ? 'allow' : 'context' };
  },
  'tools/pre-execute': async (event, { bridge, session, bus }) => {
    const payload = event.payload;
    if (!session.turnOpen) session.openTurn();
    session.step += 1;
    const { turn, step } = session;
    session.log.append({ type: 'tool/call', turn, step, toolCallId: payload.toolCallId, toolName: payload.toolName, arguments: payload.arguments });
    const result = await bus.dispatch('tools/pre-execute', payload, session.info());
    session.recordInvocations(result.invocations);
    let decision = result.decision;
    const rewrite = rewriteOf(payload.arguments, result);
    if (rewrite !== undefined) {
      session.log.append(rewriteEvent(turn, step, payload, rewrite));
      // Only an allow carries arguments to an agent that takes them; anything
      // else (an ask, an agent bridge that does not map rewrites back yet,
      // docs/rfc-tool-input-rewrite.md "Every agent") is a deny, never the original call.
      // A bridge with a way back answers for each tool: its exact input, or why not (tool-rewrite.ts).
      const back = decision.action !== 'allow' || bridge.canRewriteToolInput === true ? undefined : bridge.rewriteBack?.(event, rewrite.arguments);
      if (decision.action === 'allow' && (bridge.canRewriteToolInput === true || back?.kind === 'input')) decision = { ...decision, arguments: rewrite.arguments };
      else if (decision.action !== 'deny') decision = { action: 'deny', reason: unappliedRewriteText(bridge.label, rewrite.arguments, back?.kind === 'deny' ? back.why : undefined) };
    }
    const denied = deniedOutcome(decision);
    if (denied !== undefined) session.log.append(toolResultEvent(turn, step, payload, denied));
    else {
      // The model's note about a rewrite the agent was given goes with the call's result (rewritten-call.ts).
      const given = rewrite !== undefined && decision.action === 'allow' && decision.arguments !== undefined;
      session.pending.set(payload.toolCallId, { step, toolName: payload.toolName, ...(given && { rewrite: { arguments: rewrite.arguments, hooks: rewrite.hooks } }) });
    }
    return { decision, word: decision.action };
  },
  'tools/post-execute': async (event, { bridge, session, options, bus }) => {
    const payload = event.payload;
    if (!session.turnOpen) session.openTurn();
    const pending = takePendingCall(session, payload);
    const turn = session.turn;
    const step = pending?.step ?? (session.step += 1);
    if (pending === undefined) {
      // No PreToolUse reached hookbox for this call: record the call so the log stays readable.
      session.log.append({ type: 'tool/call', turn, step, toolCallId: payload.toolCallId, toolName: payload.toolName, arguments: payload.arguments });
    }
    const { decision: raw, invocations } = await bus.dispatch('tools/post-execute', payload, session.info());
    session.recordInvocations(invocations);
    let decision: DecisionOf<'tools/post-execute'> = raw;
    const replaceable = typeof bridge.canReplace.toolResult === 'function' ? bridge.canReplace.toolResult(payload.toolName) : bridge.canReplace.toolResult;
    if (raw.action === 'accept' && raw.content !== undefined && !replaceable) {
      decision = { action: 'block', reason: `a hookbox hook replaced this tool output and ${bridge.label} cannot replace a tool's output, so it is blocked instead` };
    }
    decision = withRewriteNote(decision, pending, bridge.notesRewrittenCall === true);
    // The log records what the model received: a replacement, with the original's length and digest (its text only on request).
    const outcome = postToolOutcome(payload.result, decision, options.keepReplacedOriginals === true);
    session.log.append(toolResultEvent(turn, step, payload, outcome));
    if (decision.action === 'block') return { decision, word: 'block' };
    if (outcome.additionalContext !== undefined) session.log.append({ type: 'context/message', turn, content: outcome.additionalContext, source: 'post-tool' });
    return { decision, word: decision.additionalContext === undefined ? 'accept' : 'context' };
  },
  'agent/turn-continuation': async (event, { session, options, bus }) => {
    const payload = event.payload;
    if (!session.turnOpen) session.openTurn();
    // The agent says whether this stop follows a forced continuation; hookbox counts how many.
    if (event.alreadyContinued !== true) session.continuations = 0;
    const continuations = session.continuations;
    const { decision: raw, invocations } = await bus.dispatch('agent/turn-continuation', { ...payload, continuations }, session.info(), { action: 'stop' });
    session.recordInvocations(invocations);
    if (raw.action === 'stop') {
      session.endTurn('completed');
      return { decision: raw, word: 'stop' };
    }
    if (continuations >= options.maxContinuations) {
      session.endTurn('completed', continuationCapReason(options.maxContinuations));
      return { decision: { action: 'stop' }, word: 'stop (cap)' };
    }
    session.continuations += 1;
    const reason = raw.reason ?? CONTINUE_REASON;
    session.log.append({ type: 'steering/message', turn: session.turn, content: reason });
    return { decision: { action: 'continue', reason }, word: 'continue' };
  },
};
