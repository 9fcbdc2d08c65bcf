/**
 * The session-log reader (host/log/reader.ts). A torn last line — what a
 * crash can leave — is skipped and reported, never an error; whole lines
 * that are not session events are damage the reader reports as a
 * `SessionLogError` naming the file and line. Whatever the bytes: the result
 * is schema-valid events plus the torn/whole byte split, or that error —
 * nothing else is thrown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionLogError } from '../../host/errors.ts';
import { type SessionEvent, SessionEventSchema, readSessionLog } from '../../host/log/index.ts';
import { fuzzParams, fuzzTimeout } from './settings.ts';

const SMALL = 150;
const TIMEOUT = fuzzTimeout(SMALL, 20);
const dir = mkdtempSync(join(tmpdir(), 'hookbox-fuzz-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(bytes: Uint8Array): string {
  const file = join(dir, `log-${counter++ % 64}.jsonl`);
  writeFileSync(file, bytes);
  return file;
}

const str = fc.string({ unit: 'grapheme', maxLength: 30 });
const turn = fc.integer({ min: 1, max: 1000 });
const step = fc.integer({ min: 1, max: 50 });
const seam = fc.constantFrom('agent/session-start', 'agent/prompt-submit', 'tools/pre-execute', 'tools/post-execute', 'agent/turn-continuation');

/** Valid session events of every type, with arbitrary text. */
const event: fc.Arbitrary<SessionEvent> = fc.oneof(
  fc.record({ type: fc.constant('session/start'), sessionId: str, cwd: str, source: fc.constantFrom('startup', 'resume'), at: str }),
  fc.record({ type: fc.constant('turn/start'), turn, at: str }),
  fc.record({ type: fc.constant('user/message'), turn, content: str }),
  fc.record({ type: fc.constant('prompt/blocked'), turn, reason: str, content: str }),
  fc.record({ type: fc.constant('assistant/message'), turn, step, content: str, toolCalls: fc.array(fc.record({ id: fc.string({ minLength: 1 }), name: fc.string({ minLength: 1 }), arguments: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })) }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('tool/result'), turn, step, toolCallId: str, toolName: str, content: str, isError: fc.boolean() }),
  fc.record({ type: fc.constant('turn/end'), turn, reason: fc.constantFrom('completed', 'max-steps', 'cancelled', 'error', 'rejected'), steps: fc.nat(50) }),
  fc.record({ type: fc.constant('hook/invoke'), hook: str, seam, durationUs: fc.nat(), outcome: fc.constantFrom('decision', 'no-opinion', 'fault'), applied: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant('hook/log'), hook: str, level: fc.constantFrom('info', 'warn', 'error', 'debug'), message: str }),
) as fc.Arbitrary<SessionEvent>;

const encoder = new TextEncoder();
const line = (e: SessionEvent) => `${JSON.stringify(e)}\n`;
/** A torn tail: a prefix of a line, or any bytes, without a newline. */
const torn = fc.oneof(
  event.chain((e) => fc.nat({ max: line(e).length - 1 }).map((cut) => encoder.encode(line(e).slice(0, cut)))),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => bytes.filter((b) => b !== 0x0a)),
);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Reads and checks the invariant; returns the result, or undefined after a well-formed SessionLogError. */
function readChecked(file: string, size: number): ReturnType<typeof readSessionLog> | undefined {
  let read: ReturnType<typeof readSessionLog>;
  try {
    read = readSessionLog(file);
  } catch (error) {
    expect(error, `a ${(error as Error)?.constructor?.name} escaped: ${(error as Error)?.message}`).toBeInstanceOf(SessionLogError);
    expect((error as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: not a (JSON object|session event) \\(`));
    return undefined;
  }
  expect(read.tornBytes + read.wholeBytes).toBe(size);
  for (const e of read.events) expect(SessionEventSchema.safeParse(e).success).toBe(true);
  return read;
}

describe('session-log reader: bytes → events, a skipped torn tail, or a SessionLogError naming the line', () => {
  it('whole event lines, blank lines and a torn tail: every event back, the tail skipped, never an error', () => {
    const blank = fc.constantFrom('\n', ' \n', '\t\n', '\r\n');
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 5, arbitrary: event }, { weight: 1, arbitrary: blank }), { maxLength: 12 }), fc.option(torn, { nil: undefined }), (items, tail) => {
        const whole = encoder.encode(items.map((item) => (typeof item === 'string' ? item : line(item))).join(''));
        const bytes = tail === undefined ? whole : concat(whole, tail);
        const read = readChecked(write(bytes), bytes.length);
        expect(read, 'a log of whole events and a torn tail was reported as damaged').toBeDefined();
        expect(read!.events).toEqual(items.filter((item) => typeof item !== 'string').map((e) => JSON.parse(JSON.stringify(e))));
        expect(read!.tornBytes).toBe(tail?.length ?? 0);
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('garbage anywhere (bytes, JSON that is not an event, invalid UTF-8): events or a SessionLogError, nothing else', () => {
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => encoder.encode(`${JSON.stringify(v)}\n`)),
      event.map((e) => encoder.encode(line(e).replace('"type":"', '"type":"x'))),
      fc.constantFrom(Uint8Array.of(0xff, 0xfe, 0x0a), Uint8Array.of(0xc3, 0x0a), encoder.encode('{"type":"turn/start","turn":1,"at":"x"}\n'), encoder.encode('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n'), encoder.encode(`${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)),
    );
    const part = fc.oneof(event.map((e) => encoder.encode(line(e))), garbage);
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const bytes = concat(...parts);
        readChecked(write(bytes), bytes.length);
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);
});
