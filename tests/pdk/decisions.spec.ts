// The PDK's decision helpers (pdk/decisions.ts) against the host's seam contract: for every seam,
// every helper DECISION_HELPERS names for it makes a decision the host's schema of that seam takes,
// with the action it is listed under; and every action the seam's schema offers has its helper.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { SEAMS, SEAM_IDS } from '../../host/seams/index.ts';
import { DECISION_HELPERS, allow, rewrite } from '../../pdk/decisions.ts';

/** What each helper is called with: the helpers that need a reason get one. */
const ARGUMENTS: Readonly<Record<string, readonly unknown[]>> = {
  allow: [],
  deny: ['not here'],
  ask: ['are you sure?'],
  block: ['not this'],
  accept: [],
  stop: [],
  continue: ['go on'],
};

/** The `action` literals a seam's decision schema takes, read from the schema itself. */
function schemaActions(schema: z.ZodType): string[] {
  const options = schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion ? (schema.options as z.ZodType[]) : [schema];
  return options.flatMap((option) => {
    const action = option instanceof z.ZodObject ? (option.shape as Record<string, z.ZodType>).action : undefined;
    return action instanceof z.ZodLiteral ? [...action.values].map(String) : [];
  });
}

describe('decision helpers', () => {
  it.each(SEAM_IDS)('%s: each helper makes a decision of the seam with its action', (seam) => {
    const helpers = DECISION_HELPERS[seam] as Readonly<Record<string, (...args: unknown[]) => unknown>>;
    for (const [action, helper] of Object.entries(helpers)) {
      const decision = helper(...(ARGUMENTS[action] ?? []));
      expect(SEAMS[seam].decision.safeParse(decision).success, `${seam} ${action}`).toBe(true);
      expect(decision).toMatchObject({ action });
    }
  });

  it.each(SEAM_IDS)("%s: every action of the seam's schema has a helper", (seam) => {
    expect(Object.keys(DECISION_HELPERS[seam]).sort()).toEqual(schemaActions(SEAMS[seam].decision).sort());
  });
});

describe('rewrite', () => {
  it('is a pre-tool allow carrying the complete new arguments, with the reason only when given', () => {
    const pre = SEAMS['tools/pre-execute'].decision;
    expect(rewrite({ command: 'ls -la' })).toStrictEqual({ action: 'allow', arguments: { command: 'ls -la' } });
    expect(rewrite({ command: 'ls' }, 'list long')).toStrictEqual({ action: 'allow', reason: 'list long', arguments: { command: 'ls' } });
    expect(allow({ arguments: { command: 'ls' }, reason: undefined })).toStrictEqual({ action: 'allow', arguments: { command: 'ls' } });
    for (const decision of [rewrite({ command: 'ls' }), rewrite({ command: 'ls' }, 'r'), allow({ arguments: { path: 'a' } })]) expect(pre.safeParse(decision).success).toBe(true);
  });
});
