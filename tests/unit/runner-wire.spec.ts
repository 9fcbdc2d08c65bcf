/**
 * hookbox's own wire (wire.ts): the msgpack envelope a hook receives, byte
 * for byte, and what its output bytes decode to. The envelope is a plain map
 * (no msgpackr records or extensions), `undefined` travels as nil, and every
 * call gets its own bytes even though packing reuses buffers (a big
 * envelope is lent in its pack buffer until the runner releases it).
 */
import { Unpackr, pack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { releaseInput } from '../../host/runner/input-lease.ts';
import { decodeDecision, encodeEnvelope, hookboxCodec } from '../../host/runner/wire.ts';
import { PROTOCOL_VERSION, type SessionInfo } from '../../host/seams/index.ts';

const session: SessionInfo = { id: 's1', turn: 2, step: 3, cwd: '/work' };
const plain = new Unpackr({ useRecords: false, mapsAsObjects: true });
const payload = { toolCallId: 't1', toolName: 'bash', arguments: { command: 'ls' } };

describe('encodeEnvelope', () => {
  it('packs {v, seam, session, payload, next} as plain msgpack maps, in that order', () => {
    const bytes = encodeEnvelope('tools/pre-execute', session, payload, { action: 'allow' });
    // fixmap of 5 entries, first key "v" = the protocol version.
    expect(bytes[0]).toBe(0x85);
    expect([...bytes.subarray(1, 4)]).toEqual([0xa1, 0x76, PROTOCOL_VERSION]);
    const value = plain.unpack(bytes) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['v', 'seam', 'session', 'payload', 'next']);
    expect(value).toEqual({ v: PROTOCOL_VERSION, seam: 'tools/pre-execute', session, payload, next: { action: 'allow' } });
    // Nested objects are plain fixmaps too (msgpackr's default would write a record extension).
    const sessionKey = Buffer.from(bytes).indexOf(Buffer.from([0xa7, ...Buffer.from('session')]));
    expect(bytes[sessionKey + 8]).toBe(0x84);
    expect(bytes.includes(0xd4)).toBe(false);
  });

  it('writes undefined as nil and a null `next` as nil', () => {
    const bytes = encodeEnvelope('agent/session-start', session, { source: 'startup', model: undefined } as never, null);
    const value = plain.unpack(bytes) as { payload: Record<string, unknown>; next: unknown };
    expect(value.payload).toEqual({ source: 'startup', model: null });
    expect(value.next).toBeNull();
    expect(bytes.includes(0xd4)).toBe(false); // no fixext 1 (msgpackr's undefined extension)
  });

  it("gives each call its own copy: a later envelope does not overwrite an earlier one's bytes", () => {
    const first = encodeEnvelope('agent/prompt-submit', session, { content: 'first', source: 'cli' }, null);
    const snapshot = Uint8Array.from(first);
    const second = encodeEnvelope('agent/prompt-submit', session, { content: 'second!', source: 'cli' }, null);
    expect(first).toEqual(snapshot);
    expect(first.buffer).not.toBe(second.buffer);
    expect(first.byteLength).toBe(first.buffer.byteLength); // exact-size copy, not a view of a scratch buffer
  });

  it('lends a big envelope in its pack buffer: a later envelope goes elsewhere until it is released, then reuses it', () => {
    const prompt = (content: string) => encodeEnvelope('agent/prompt-submit', session, { content, source: 'cli' }, null);
    const contentOf = (bytes: Uint8Array) => (plain.unpack(bytes) as { payload: { content: string } }).payload.content;
    const first = prompt('a'.repeat(200_000));
    expect(first.byteLength).toBeLessThan(first.buffer.byteLength); // a view of the buffer it was packed into, not a copy
    const second = prompt('b'.repeat(200_000));
    expect(second.buffer).not.toBe(first.buffer);
    expect(contentOf(first)).toBe('a'.repeat(200_000));
    releaseInput(first);
    const third = prompt('c'.repeat(150_000));
    expect(third.buffer).toBe(first.buffer);
    expect(contentOf(third)).toBe('c'.repeat(150_000));
    expect(contentOf(second)).toBe('b'.repeat(200_000));
    releaseInput(second);
    releaseInput(third);
  });

  it('packs a payload bigger than the pack buffer, then small ones again, each intact', () => {
    const big = 'x'.repeat(300_000);
    for (const content of [big, 'small', `${big}y`, 'tiny']) {
      const bytes = encodeEnvelope('agent/prompt-submit', session, { content, source: 'cli' }, null);
      expect((plain.unpack(bytes) as { payload: { content: string } }).payload.content).toBe(content);
    }
  });
});

describe('decodeDecision', () => {
  it('reads no output and empty output as no opinion', () => {
    expect(decodeDecision('tools/pre-execute', null)).toEqual({ type: 'no-opinion' });
    expect(decodeDecision('tools/pre-execute', new Uint8Array(0))).toEqual({ type: 'no-opinion' });
  });

  it('checks one msgpack value against the seam schema', () => {
    expect(decodeDecision('tools/pre-execute', pack({ action: 'deny', reason: 'no' }))).toEqual({
      type: 'decision',
      decision: { action: 'deny', reason: 'no' },
    });
    const wrong = decodeDecision('tools/pre-execute', pack({ action: 'stop' }));
    expect(wrong.type).toBe('fault');
    expect(wrong.type === 'fault' && wrong.fault.kind).toBe('schema');
    expect(wrong.type === 'fault' && wrong.fault.message).toMatch(/^output is not a valid tools\/pre-execute decision: /);
  });

  it('turns bytes that are not msgpack into a decode fault naming the length, never a throw', () => {
    const outcome = decodeDecision('tools/pre-execute', Uint8Array.from([0xc1, 0xc1, 0xc1]));
    expect(outcome.type).toBe('fault');
    if (outcome.type !== 'fault') return;
    expect(outcome.fault.kind).toBe('decode');
    expect(outcome.fault.message).toMatch(/^output is not one msgpack value \(3 bytes\): \S/);
  });
});

describe('hookboxCodec', () => {
  it('encodes a seam call as the envelope and decodes a reply, passing a fault through untouched', () => {
    expect(hookboxCodec.name).toBe('hookbox');
    const call = { seam: 'tools/pre-execute' as const, session, payload, next: { action: 'allow' as const } };
    expect(hookboxCodec.encode(call)).toEqual(encodeEnvelope(call.seam, call.session, call.payload, call.next));
    const fault = { kind: 'trap' as const, message: 'unreachable' };
    expect(hookboxCodec.decode('tools/pre-execute', { output: pack({ action: 'allow' }), fault })).toEqual({ type: 'fault', fault });
    expect(hookboxCodec.decode('tools/pre-execute', { output: pack({ action: 'allow' }) })).toEqual({ type: 'decision', decision: { action: 'allow' } });
    expect(hookboxCodec.decode('tools/pre-execute', { output: null })).toEqual({ type: 'no-opinion' });
  });
});
