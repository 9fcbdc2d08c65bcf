import type { DecisionOf, FailPolicy, PayloadOf, SeamId, SessionInfo } from '../seams/index.ts';
import type { ListenerOutcome, SeamCall, SeamListener } from './listener.ts';

/** Returned by a native handler that has no opinion: the seam passes `next` through. */
export const NO_OPINION: unique symbol = Symbol('hookbox.no-opinion');
/** The type of `NO_OPINION`. */
export type NoOpinion = typeof NO_OPINION;

/** What a native handler sees besides the payload. */
export interface NativeContext<S extends SeamId> {
  readonly next: DecisionOf<S> | null;
  readonly session: SessionInfo;
}

/** A native handler for one seam: a decision, or `NO_OPINION`. */
export type NativeHandler<S extends SeamId> = (
  payload: PayloadOf<S>,
  context: NativeContext<S>,
) => DecisionOf<S> | NoOpinion | Promise<DecisionOf<S> | NoOpinion>;

/** A native hook's handlers, keyed by seam id. */
export type NativeHandlers = { [S in SeamId]?: NativeHandler<S> };

/** Options of `nativeHook`. */
export interface NativeHookOptions {
  readonly name: string;
  readonly handlers: NativeHandlers;
  readonly tools?: readonly string[];
  readonly failPolicy?: FailPolicy;
}

/**
 * A hook written as plain in-process TypeScript: an ordinary seam listener,
 * exactly like a wasm hook ("native hooks are just a plugin", docs/rfc-interception-seams.md).
 */
export function nativeHook(options: NativeHookOptions): SeamListener {
  const seams = (Object.keys(options.handlers) as SeamId[]).filter((seam) => options.handlers[seam] !== undefined);
  return {
    name: options.name,
    seams,
    ...(options.tools !== undefined && { tools: options.tools }),
    ...(options.failPolicy !== undefined && { failPolicy: options.failPolicy }),
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      const handler = options.handlers[call.seam] as NativeHandler<S> | undefined;
      if (handler === undefined) return { type: 'no-opinion' };
      const result = await handler(call.payload, { next: call.next, session: call.session });
      return result === NO_OPINION ? { type: 'no-opinion' } : { type: 'decision', decision: result };
    },
  };
}
