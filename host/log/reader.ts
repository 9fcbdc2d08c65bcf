import { existsSync, readFileSync, truncateSync } from 'node:fs';
import { SessionLogError } from '../errors.ts';
import { issueLines } from '../json/index.ts';
import { type SessionEvent, SessionEventSchema } from './events.ts';

export interface ReadLog {
  readonly events: SessionEvent[];
  /** Bytes of a torn last line (a crash mid-write), skipped. */
  readonly tornBytes: number;
  /** Byte length of the whole lines, where a resumed writer may append. */
  readonly wholeBytes: number;
}

/**
 * Reads a session log. A torn last line (no trailing newline) is tolerated
 * and reported; any other bad line is an error naming the file and line,
 * because it means the log was damaged by something other than a crash.
 */
export function readSessionLog(path: string): ReadLog {
  if (!existsSync(path)) throw new SessionLogError(`session log ${path} does not exist`);
  const bytes = readFileSync(path);
  const lastNewline = bytes.lastIndexOf(0x0a);
  const wholeBytes = lastNewline + 1;
  const text = bytes.subarray(0, wholeBytes).toString('utf8');
  const events: SessionEvent[] = [];
  const lines = text.split('\n');
  lines.pop(); // the empty string after the final newline
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new SessionLogError(`${path}:${index + 1}: not a JSON object (${(error as Error).message})`, {
        cause: error,
      });
    }
    const parsed = SessionEventSchema.safeParse(json);
    if (!parsed.success) {
      const where = issueLines(parsed.error)[0] ?? '';
      throw new SessionLogError(`${path}:${index + 1}: not a session event (${where})`);
    }
    events.push(parsed.data);
  });
  return { events, tornBytes: bytes.length - wholeBytes, wholeBytes };
}

/** Trims a torn last line so appended events start on a fresh line. Returns the bytes removed. */
export function repairTornTail(path: string): number {
  const { tornBytes, wholeBytes } = readSessionLog(path);
  if (tornBytes > 0) truncateSync(path, wholeBytes);
  return tornBytes;
}
