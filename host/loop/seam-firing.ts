import type { SeamId } from '../seams/index.ts';

/** Where the loop fires one seam, and whether `replay` can re-decide it from a session log. */
export interface SeamFiring {
  /** The file in `host/loop/` whose code dispatches it (`tests/unit/seam-firing.spec.ts` checks it does). */
  readonly file: string;
  /** The function that dispatches it, and when. */
  readonly firedBy: string;
  /** Why replay does not re-decide it, or `null` when it does. */
  readonly notReplayed: string | null;
}

/**
 * The loop's side of every seam. A seam added to `host/seams` fails `tsc`
 * here, and only here, until the loop says where it fires (docs/architecture.md,
 * "How to add a seam"): typed, not `satisfies`, so its readers (replay, the
 * seam-firing spec) keep their types meanwhile. Replay reports the seams it
 * leaves alone from it.
 */
export const SEAM_FIRING: { readonly [S in SeamId]: SeamFiring } = {
  'agent/session-start': {
    file: 'session.ts',
    firedBy: 'Session.#begin, once per start or resume',
    notReplayed: 'session-start only adds context; nothing in the log depends on one decision',
  },
  'agent/prompt-submit': { file: 'turn.ts', firedBy: 'runTurn, per drained prompt', notReplayed: null },
  'tools/pre-execute': { file: 'tool-registry.ts', firedBy: 'ToolRegistry.execute, before the tool', notReplayed: null },
  'tools/post-execute': { file: 'tool-registry.ts', firedBy: 'ToolRegistry.execute, after the tool', notReplayed: null },
  'agent/turn-continuation': {
    file: 'turn.ts',
    firedBy: 'runTurn, after a step without tool calls',
    notReplayed: 'a continuation changes which model calls follow, and replay runs no model',
  },
};
