import { canonicalJson } from '../events/index.ts';
import { rewrittenCallNote } from '../loop/reactions.ts';
import { type PostToolDecision, type PostToolPayload, joinContext } from '../seams/index.ts';
import type { PendingCall, ServedSession } from './served-session.ts';

/**
 * The pending call a post-tool event reports on: by its id, else — for an
 * agent that derives a call's id from its arguments (Gemini CLI, Copilot CLI)
 * and reports the rewritten call at post-tool — the pending rewritten call of
 * that tool whose final arguments these are. Removed from the pending table.
 */
export function takePendingCall(session: ServedSession, payload: PostToolPayload): PendingCall | undefined {
  let id: string | undefined = session.pending.has(payload.toolCallId) ? payload.toolCallId : undefined;
  if (id === undefined) {
    // Serialised only when a rewritten call of this tool is pending: most post-tool events have none.
    let args: string | undefined;
    for (const [key, call] of session.pending) {
      if (call.rewrite === undefined || call.toolName !== payload.toolName) continue;
      args ??= canonicalJson(payload.arguments);
      if (canonicalJson(call.rewrite.arguments) === args) {
        id = key;
        break;
      }
    }
  }
  if (id === undefined) return undefined;
  const call = session.pending.get(id);
  session.pending.delete(id);
  return call;
}

/**
 * The model's one note about a rewritten call (`rewrittenCallNote`, the rule
 * the loop follows: docs/rfc-tool-input-rewrite.md, "The model's view"), for
 * an agent whose pre-tool answer could not carry it: first in the call's
 * post-tool context, which the agent adds to the result the model reads. A
 * withheld result gets none, as in the loop.
 */
export function withRewriteNote(decision: PostToolDecision, call: PendingCall | undefined, notedAlready: boolean): PostToolDecision {
  if (call?.rewrite === undefined || notedAlready || decision.action === 'block') return decision;
  return { ...decision, additionalContext: joinContext(rewrittenCallNote(call.rewrite.hooks, call.rewrite.arguments), decision.additionalContext) };
}
