import type { DecisionOf } from '../seams/index.ts';
import type { AgentAnswer } from './agent-bridge.ts';
import { CONTINUE_REASON, NO_OPINION, type SeamAnswers, contextAnswer, jsonAnswer } from './bridge-parts.ts';
import { safeText } from './event-input.ts';

/** The seams of #51 beyond the first five. */
export type LifecycleSeam = 'agent/session-end' | 'agent/pre-compact' | 'agent/subagent-start' | 'agent/subagent-stop' | 'tools/permission-request' | 'agent/notification';

/** One agent's wording of the lifecycle seams' decisions. */
export type LifecycleAnswers = Pick<SeamAnswers, LifecycleSeam>;

/**
 * How an agent of Claude Code's hook names takes a pre-compact block:
 * `decision` — `decision: "block"` + reason (Claude Code's documented form,
 * since 2.1.105); `stop` — `continue: false` + `stopReason` (Codex 0.169.0,
 * measured: it ignores `decision: "block"` on PreCompact and compacts, while
 * `continue: false` ends the run before the compaction's model call);
 * `none` — the agent cannot be stopped from compacting (Gemini CLI's
 * PreCompress is advisory): no answer.
 */
export type PreCompactBlock = 'decision' | 'stop' | 'none';

/**
 * A permission-request decision as Claude Code 2.1.328 takes it
 * (`hookSpecificOutput.decision.behavior`; measured headless: `deny` with a
 * `message` refused a Write that `--allowedTools` did not allow, and the
 * model read the message as the tool's error). `ask` is no opinion: the
 * agent's own prompt (or, headless, its refusal) as without hooks.
 */
export function claudePermissionAnswer(decision: DecisionOf<'tools/permission-request'>): AgentAnswer {
  if (decision.action === 'ask') return NO_OPINION;
  const behavior = decision.action === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: safeText(decision.reason) };
  return jsonAnswer({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: behavior } });
}

/** A subagent forced on: `decision: "block"` + reason, as a Stop (measured with Claude Code: the subagent reads the reason and goes on). */
export function subagentContinueAnswer(decision: DecisionOf<'agent/subagent-stop'>): AgentAnswer {
  return decision.action === 'stop' ? NO_OPINION : jsonAnswer({ decision: 'block', reason: safeText(decision.reason ?? CONTINUE_REASON) });
}

/** A pre-compact decision in the agent's form (`block`: see {@link PreCompactBlock}); context for the summary no agent here takes. */
export function preCompactAnswer(block: PreCompactBlock): (decision: DecisionOf<'agent/pre-compact'>) => AgentAnswer {
  return (decision) => {
    if (decision.action !== 'block' || block === 'none') return NO_OPINION;
    const reason = safeText(decision.reason);
    return block === 'decision' ? jsonAnswer({ decision: 'block', reason }) : jsonAnswer({ continue: false, stopReason: reason });
  };
}

/** The lifecycle answers of an agent of Claude Code's hook names (Claude Code, Qwen Code, Factory Droid, Codex, Gemini CLI). */
export function claudeNamedLifecycleAnswers(block: PreCompactBlock): LifecycleAnswers {
  return {
    // Notifications: heard, nothing to answer.
    'agent/session-end': () => NO_OPINION,
    'agent/notification': () => NO_OPINION,
    'agent/subagent-start': (start) => contextAnswer('SubagentStart', start.additionalContext),
    'agent/subagent-stop': subagentContinueAnswer,
    'agent/pre-compact': preCompactAnswer(block),
    'tools/permission-request': claudePermissionAnswer,
  };
}
