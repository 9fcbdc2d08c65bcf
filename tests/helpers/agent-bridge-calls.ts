/**
 * Calling one agent bridge's pure parts the way the bridge unit tests do:
 * an event that must map to a seam call, and an answer read as the JSON the
 * agent would parse.
 */
import { expect } from 'vitest';
import type { AgentBridge, AgentSeamEvent, ParsedAgentEvent } from '../../host/agents/agent-bridge.ts';
import type { DecisionOf, SeamId } from '../../host/seams/index.ts';

/** The bridge's seam call for `input`; anything else (pass, invalid) throws with what it got. */
export function seamCall(bridge: AgentBridge, input: unknown): Extract<ParsedAgentEvent, { kind: 'seam' }> {
  const parsed = bridge.toSeam(input);
  if (parsed.kind !== 'seam') throw new Error(`expected a seam call, got ${JSON.stringify(parsed)}`);
  return parsed;
}

/** The bridge's answer to `decision` as parsed JSON (undefined for an empty answer); it must exit 0. */
export function answerJsonOf<S extends SeamId>(bridge: AgentBridge, event: AgentSeamEvent<S>, decision: DecisionOf<S>): unknown {
  const answer = bridge.answer(event, decision);
  expect(answer.exitCode).toBe(0);
  return answer.stdout === '' ? undefined : JSON.parse(answer.stdout);
}
