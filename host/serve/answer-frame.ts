import type { AgentAnswer } from '../agents/index.ts';

/**
 * The request header a client sends when it cannot read response headers
 * (the sh client, `host/cli/hookbox-hook.sh`: curl prints the body only, and
 * reading headers portably needs a `curl` newer than many systems ship).
 */
export const FRAME_HEADER = 'x-hookbox-frame';
/** The one framing there is: {@link FRAME_HEADER}'s value. */
export const FRAME_LINE = 'line';

/**
 * The answer as one first line and the text, for a client that applies it
 * without parsing JSON: `hookbox <exit> <refused> <bytes>\n<text>`. `exit`
 * is the command-hook exit code (the `x-hookbox-exit` header's value);
 * `refused` is why the server would not decide (`other-config`) or `-`;
 * `bytes` is the text's length in bytes, so a client that lost a byte (a
 * shell variable holds no NUL) can tell and answer closed instead; the text
 * is the answer's stdout on exit 0, its stderr otherwise — byte for byte
 * what the unframed body carries. With a `proof` (the listener proof,
 * host/serve/listener-proof.ts) it follows `bytes` as a fifth field.
 */
export function frameAnswer(answer: AgentAnswer, refused: string | undefined, proof?: string): string {
  const text = answer.exitCode === 0 ? answer.stdout : answer.stderr;
  return `hookbox ${answer.exitCode} ${refusalWord(refused)} ${Buffer.byteLength(text)}${proof === undefined ? '' : ` ${proof}`}\n${text}`;
}

/** The refusal as the frame and the proof carry it: one lowercase word, or `-`. */
export function refusalWord(refused: string | undefined): string {
  return refused !== undefined && /^[a-z-]{1,40}$/.test(refused) ? refused : '-';
}
