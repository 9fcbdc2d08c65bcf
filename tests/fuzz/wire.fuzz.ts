/**
 * The wire decoder (host/runner/wire.ts): whatever bytes a plugin returns,
 * decoding yields a decision the seam's schema accepts, no opinion (empty
 * output only), or a `decode`/`schema` fault — never a throw. Inputs:
 * arbitrary bytes, valid msgpack of arbitrary values, near-valid decisions,
 * and the same through hookbox's codec and the Claude Code / Codex ones.
 */
import fc from 'fast-check';
import { Packr, pack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { protocolCodec } from '../../host/bridges/index.ts';
import { type HookCodec, decodeDecision, hookboxCodec } from '../../host/runner/wire.ts';
import type { HookFaultKind } from '../../host/seams/index.ts';
import { nearValidDecision, seamArb, validDecision } from './decisions.ts';
import { expectOutcome } from './outcome.ts';
import { fuzzParams, fuzzTimeout } from './settings.ts';

const DECODE_KINDS: HookFaultKind[] = ['decode', 'schema'];
const SMALL = 500;
const TIMEOUT = fuzzTimeout(SMALL, 2);

/** Packs without throwing on the values msgpackr cannot encode (those inputs are skipped). */
function packOrNull(value: unknown, packer: (v: unknown) => Uint8Array = pack): Uint8Array | null {
  try {
    return packer(value);
  } catch {
    return null;
  }
}

const withRecords = new Packr({ useRecords: true });
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.uint8Array({ maxLength: 2048 }),
  // msgpack type bytes up front make deeper parses likelier than uniform noise.
  fc.tuple(fc.constantFrom(0x80, 0x81, 0x82, 0x91, 0xc1, 0xc7, 0xd4, 0xd9, 0xdc, 0xde, 0xdf), fc.uint8Array({ maxLength: 256 })).map(
    ([head, rest]) => Uint8Array.of(head, ...rest),
  ),
);

describe('wire decoder: bytes → decision or typed fault', () => {
  it('arbitrary bytes', () => {
    fc.assert(
      fc.property(seamArb, bytes, (seam, input) => {
        const outcome = decodeDecision(seam, input);
        expectOutcome(seam, outcome, DECODE_KINDS);
        if (input.byteLength === 0) expect(outcome).toEqual({ type: 'no-opinion' });
        else expect(outcome.type).not.toBe('no-opinion');
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('valid msgpack of arbitrary values (plain, and with msgpackr records)', () => {
    fc.assert(
      fc.property(seamArb, fc.anything({ maxDepth: 4, withBigInt: true, withNullPrototype: true, withMap: true, withSet: true, withDate: true, withTypedArray: true }), fc.boolean(), (seam, value, records) => {
        const input = packOrNull(value, records ? (v) => withRecords.pack(v) : pack);
        fc.pre(input !== null);
        expectOutcome(seam, decodeDecision(seam, input), DECODE_KINDS);
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('valid decisions decode to themselves', () => {
    fc.assert(
      fc.property(seamArb.chain((seam) => fc.tuple(fc.constant(seam), validDecision(seam))), ([seam, decision]) => {
        expect(decodeDecision(seam, pack(decision))).toEqual({ type: 'decision', decision });
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('near-valid decisions (a field dropped, retyped or added) decode or fault, never throw', () => {
    fc.assert(
      fc.property(seamArb.chain((seam) => fc.tuple(fc.constant(seam), nearValidDecision(seam))), ([seam, decision]) => {
        const input = packOrNull(decision);
        fc.pre(input !== null);
        const outcome = decodeDecision(seam, input);
        expectOutcome(seam, outcome, DECODE_KINDS);
        // A fault from a decodable value is the schema's, and names the decision.
        if (outcome.type === 'fault') expect(outcome.fault).toMatchObject({ kind: 'schema', message: expect.stringContaining('decision') });
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('nested containers far deeper than any decision are a decode or schema fault', () => {
    fc.assert(
      fc.property(seamArb, fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(0x91, 0x81), (seam, depth, head) => {
        // 0x91 = array of one; 0x81 0xa1 0x61 = map {"a": …}
        const unit = head === 0x91 ? [0x91] : [0x81, 0xa1, 0x61];
        const input = new Uint8Array(depth * unit.length + 1);
        for (let i = 0; i < depth; i++) input.set(unit, i * unit.length);
        input[input.length - 1] = 0xc0;
        expectOutcome(seam, decodeDecision(seam, input), DECODE_KINDS);
      }),
      fuzzParams(Math.ceil(SMALL / 20)),
    );
  }, TIMEOUT);
});

describe('hook codecs: output bytes, exit code, error text → decision or typed fault', () => {
  const reply = fc.record({
    output: fc.oneof(fc.constant(null), fc.uint8Array({ maxLength: 256 }), fc.string({ maxLength: 200 }).map((s) => new TextEncoder().encode(s))),
    fault: fc.option(fc.record({ kind: fc.constantFrom('trap', 'plugin-error', 'timeout', 'memory' as const), message: fc.string({ minLength: 1 }) }), { nil: undefined }),
    exit: fc.option(fc.record({ code: fc.integer({ min: -1, max: 300 }), errorText: fc.option(fc.string(), { nil: undefined }) }), { nil: undefined }),
  });

  const codecs: Record<string, HookCodec> = { hookbox: hookboxCodec, 'claude-code': protocolCodec('claude-code'), codex: protocolCodec('codex') };
  it.each(Object.keys(codecs))('%s', (protocol) => {
    const codec = codecs[protocol]!;
    fc.assert(
      fc.property(seamArb, reply, (seam, r) => {
        const clean = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Parameters<typeof codec.decode>[1];
        const outcome = codec.decode(seam, clean);
        expectOutcome(seam, outcome, ['decode', 'schema', 'plugin-error', 'trap', 'timeout', 'memory']);
        // A fault the runner reported is never turned into a decision unless the exit code says the hook decided.
        if (r.fault !== undefined && (r.exit === undefined || r.exit.code === 0)) expect(outcome).toEqual({ type: 'fault', fault: r.fault });
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);
});
