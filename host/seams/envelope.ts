import * as z from 'zod';

/** Wire protocol version carried in every envelope; a hook declaring another version is refused at load. */
export const PROTOCOL_VERSION = 1;

export const SessionInfoSchema = z.strictObject({
  id: z.string(),
  turn: z.number().int().nonnegative(),
  step: z.number().int().nonnegative(),
  cwd: z.string(),
});
/** The session facts every hook call carries: `{id, turn, step, cwd}`. */
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** What a hook export receives as msgpack input: `{v, seam, session, payload, next}`. */
export function envelopeSchema<P extends z.ZodType, D extends z.ZodType>(seam: string, payload: P, decision: D) {
  return z.strictObject({
    v: z.literal(PROTOCOL_VERSION),
    seam: z.literal(seam),
    session: SessionInfoSchema,
    payload,
    /** The decision so far (`null` on notify seams). */
    next: decision.nullable(),
  });
}

export interface Envelope<P, D> {
  v: typeof PROTOCOL_VERSION;
  seam: string;
  session: SessionInfo;
  payload: P;
  next: D | null;
}
