/**
 * The Claude Code / Codex protocol output parser
 * (host/bridges/protocol-output.ts): exit code, stdout and stderr of a
 * shell hook (or a protocol-speaking wasm hook) → a decision the seam's
 * schema accepts, no opinion, or a `decode`/`schema`/`plugin-error` fault.
 * Never a throw: everything a hook prints is untrusted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protocolOutcome } from '../../host/bridges/protocol-output.ts';
import type { HookFaultKind } from '../../host/seams/index.ts';
import { NASTY_KEYS, seamArb } from './decisions.ts';
import { expectOutcome } from './outcome.ts';
import { fuzzParams, fuzzTimeout } from './settings.ts';

const KINDS: HookFaultKind[] = ['decode', 'schema', 'plugin-error'];
const SMALL = 800;
const TIMEOUT = fuzzTimeout(SMALL, 2);
const protocolArb = fc.constantFrom('claude-code' as const, 'codex' as const);

const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('', ' ', '\n\t ', 'x'.repeat(2500)));
const value = fc.oneof(anyText, fc.boolean(), fc.integer(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));

/** Objects shaped like Claude Code / Codex hook output, with any field possibly wrong. */
const outputObject = fc.record(
  {
    continue: fc.oneof(fc.boolean(), value),
    stopReason: fc.oneof(anyText, value),
    suppressOutput: fc.boolean(),
    systemMessage: anyText,
    decision: fc.oneof(fc.constantFrom('approve', 'block', 'allow', 'deny', ''), value),
    reason: fc.oneof(anyText, value),
    hookSpecificOutput: fc.oneof(
      fc.record(
        {
          hookEventName: fc.oneof(fc.constantFrom('PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'), value),
          permissionDecision: fc.oneof(fc.constantFrom('allow', 'deny', 'ask', 'defer'), value),
          permissionDecisionReason: fc.oneof(anyText, value),
          additionalContext: fc.oneof(anyText, value),
          updatedInput: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: [] },
      ),
      value,
    ),
    permissionDecision: fc.constantFrom('allow', 'deny'),
    updatedInput: fc.jsonValue({ maxDepth: 1 }),
    extra: value,
  },
  { requiredKeys: [] },
);

/** The JSON text of an output object, with a nasty own key sometimes added. */
const jsonStdout = fc.tuple(outputObject, fc.option(fc.tuple(fc.constantFrom(...NASTY_KEYS), value), { nil: undefined })).map(([object, extra]) => {
  let json = JSON.stringify(object);
  if (extra !== undefined) json = `{${JSON.stringify(extra[0])}:${JSON.stringify(extra[1])}${json === '{}' ? '' : `,${json.slice(1, -1)}`}}`;
  return json;
});

const stdout = fc.oneof(
  jsonStdout,
  jsonStdout.map((json) => ` \n${json}\n`),
  // Truncated or padded JSON: starts like JSON, does not parse.
  fc.tuple(jsonStdout, fc.nat()).map(([json, cut]) => json.slice(0, (cut % json.length) + 1)),
  fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
  anyText,
);

describe('protocol output parser: exit code, stdout, stderr → decision or typed fault', () => {
  it('any output of any exit code', () => {
    fc.assert(
      fc.property(
        protocolArb,
        seamArb,
        fc.oneof(fc.constantFrom(0, 0, 0, 2, 2, 1), fc.integer({ min: -2, max: 300 })),
        stdout,
        anyText,
        (protocol, seam, exitCode, out, stderr) => {
          const outcome = protocolOutcome(protocol, seam, { exitCode, stdout: out, stderr });
          expectOutcome(seam, outcome, KINDS);
          if (exitCode !== 0 && exitCode !== 2) expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
          if (exitCode === 0 && out.trim() === '') expect(outcome).toEqual({ type: 'no-opinion' });
          // A carried reason is capped (2,000 characters and an ellipsis).
          if (outcome.type === 'decision') {
            const { reason } = outcome.decision as { reason?: string };
            if (reason !== undefined) expect(reason.length).toBeLessThanOrEqual(2001);
          }
        },
      ),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);
});
