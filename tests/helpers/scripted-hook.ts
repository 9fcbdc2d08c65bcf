import { NO_OPINION, type NativeHandlers, type SeamListener, nativeHook } from '../../host/events/index.ts';
import { SEAM_IDS, type SeamId, type SessionInfo } from '../../host/seams/index.ts';

/** One call a scripted hook got. */
export interface ScriptedCall {
  readonly seam: SeamId;
  readonly payload: unknown;
  readonly session: SessionInfo;
}

/**
 * A native hook named `script` on every seam, answering with whatever handler
 * `handlers()` holds for the seam at the time of the call (none: no opinion),
 * so a test can change its answers as it goes; each call is pushed to `seen`.
 */
export function scriptedHook(handlers: () => NativeHandlers, seen?: ScriptedCall[]): SeamListener {
  const relayed: Record<string, unknown> = {};
  for (const seam of SEAM_IDS) {
    relayed[seam] = (payload: unknown, context: { session: SessionInfo }) => {
      seen?.push({ seam, payload, session: context.session });
      const handler = handlers()[seam] as ((payload: unknown, context: unknown) => unknown) | undefined;
      return handler === undefined ? NO_OPINION : handler(payload, context);
    };
  }
  return nativeHook({ name: 'script', handlers: relayed as NativeHandlers });
}
