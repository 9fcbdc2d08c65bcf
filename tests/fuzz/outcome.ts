/**
 * The one check every boundary fuzz target shares: a value is a listener
 * outcome of the documented type — a decision the seam's schema accepts, an
 * explicit no-opinion, or a fault of a known kind with a message.
 */
import { expect } from 'vitest';
import type { ListenerOutcome } from '../../host/events/index.ts';
import { HookFaultSchema, type HookFaultKind, type SeamId, seamDefinition } from '../../host/seams/index.ts';

/** Asserts `outcome` is a well-formed outcome for `seam`, with a fault kind among `kinds`. */
export function expectOutcome(seam: SeamId, outcome: ListenerOutcome<unknown>, kinds: readonly HookFaultKind[]): void {
  expect(['decision', 'no-opinion', 'fault']).toContain(outcome.type);
  if (outcome.type === 'decision') {
    const parsed = seamDefinition(seam).decision.safeParse(outcome.decision);
    expect(parsed.success, `decision ${JSON.stringify(outcome.decision)} fails the ${seam} schema`).toBe(true);
    expect(parsed.data).toEqual(outcome.decision);
  } else if (outcome.type === 'fault') {
    expect(HookFaultSchema.safeParse(outcome.fault).success).toBe(true);
    expect(kinds).toContain(outcome.fault.kind);
    expect(outcome.fault.message.length).toBeGreaterThan(0);
  } else {
    expect(Object.keys(outcome)).toEqual(['type']);
  }
}
