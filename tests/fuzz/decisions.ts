/**
 * Generators of decisions that are valid, and of near-valid ones (one field
 * dropped, retyped, renamed or added), for every seam. Shared by the fuzz
 * targets that decode decisions from untrusted bytes.
 */
import fc from 'fast-check';
import { SEAM_IDS, type SeamId } from '../../host/seams/index.ts';

/** Keys that have tripped object-building code elsewhere. */
export const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' action', 'Action'];

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('', ' ', '\n', '\u0000'));
const nonEmpty = fc.string({ minLength: 1, maxLength: 40 });

/** One valid decision per seam, built from arbitrary text. */
export function validDecision(seam: SeamId): fc.Arbitrary<Record<string, unknown>> {
  const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const clean = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  switch (seam) {
    case 'agent/session-start':
      return fc.record({ additionalContext: opt(text) }).map(clean);
    case 'agent/prompt-submit':
      return fc.oneof(
        fc.record({ action: fc.constant('allow'), content: opt(text), additionalContext: opt(text) }).map(clean),
        fc.record({ action: fc.constant('block'), reason: nonEmpty }),
      );
    case 'tools/pre-execute':
      return fc.oneof(
        fc.record({ action: fc.constantFrom('allow', 'ask'), reason: opt(text) }).map(clean),
        fc.record({ action: fc.constant('deny'), reason: nonEmpty }),
      );
    case 'tools/post-execute':
      return fc.oneof(
        fc.record({ action: fc.constant('accept'), content: opt(text), additionalContext: opt(text) }).map(clean),
        fc.record({ action: fc.constant('block'), reason: nonEmpty }),
      );
    case 'agent/turn-continuation':
    case 'agent/subagent-stop':
      return fc.oneof(fc.constant({ action: 'stop' }), fc.record({ action: fc.constant('continue'), reason: opt(text) }).map(clean));
    case 'tools/permission-request':
      return fc.oneof(
        fc.constant({ action: 'ask' }),
        fc.record({ action: fc.constant('allow'), reason: opt(text) }).map(clean),
        fc.record({ action: fc.constant('deny'), reason: nonEmpty }),
      );
    case 'agent/subagent-start':
      return fc.record({ additionalContext: opt(text) }).map(clean);
    case 'agent/pre-compact':
      return fc.oneof(
        fc.record({ action: fc.constant('allow'), additionalContext: opt(text) }).map(clean),
        fc.record({ action: fc.constant('block'), reason: nonEmpty }),
      );
    case 'agent/notification':
    case 'agent/session-end':
      return fc.constant({});
  }
}

const FIELDS = ['action', 'reason', 'content', 'additionalContext', 'arguments', 'next', 'v'];

/** A valid decision with one or more mutations: a field dropped, given any value, or a key added. */
export function nearValidDecision(seam: SeamId): fc.Arbitrary<unknown> {
  const mutation = fc.oneof(
    fc.record({ op: fc.constant('drop' as const), key: fc.constantFrom(...FIELDS) }),
    fc.record({ op: fc.constant('set' as const), key: fc.oneof(fc.constantFrom(...FIELDS, ...NASTY_KEYS), fc.string({ maxLength: 8 })), value: fc.anything({ maxDepth: 2 }) }),
    fc.record({ op: fc.constant('action' as const), value: fc.oneof(fc.constantFrom('allow', 'deny', 'ask', 'block', 'accept', 'stop', 'continue', 'ALLOW', ''), fc.string()) }),
  );
  return fc.tuple(validDecision(seam), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([base, mutations]) => {
    const out: Record<string, unknown> = { ...base };
    for (const m of mutations) {
      if (m.op === 'drop') delete out[m.key];
      else if (m.op === 'set') Object.defineProperty(out, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      else out.action = m.value;
    }
    return out;
  });
}

export const seamArb = fc.constantFrom(...SEAM_IDS);
