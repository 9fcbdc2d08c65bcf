import type { SeamId } from '../seams/index.ts';

/** Where the loop fires one seam, and whether `replay` can re-decide it from a session log. */
export type SeamFiring = FiredSeam | UnfiredSeam;

/** A seam hookbox's own loop fires. */
export interface FiredSeam {
  /** The file in `host/loop/` whose code dispatches it (`tests/unit/seam-firing.spec.ts` checks it does). */
  readonly file: string;
  /** The function that dispatches it, and when. */
  readonly firedBy: string;
  /** Why replay does not re-decide it, or `null` when it does. */
  readonly notReplayed: string | null;
}

/**
 * A seam hookbox's own loop has no moment for (it does not compact, it has
 * no subagents, it sends its user no notifications): only agent bridges fire
 * it. Replay leaves it alone.
 */
export interface UnfiredSeam {
  readonly file: null;
  /** Why the loop has no moment for it. */
  readonly why: string;
  readonly notReplayed: string;
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
  'tools/permission-request': {
    file: 'permission.ts',
    firedBy: 'resolvePermission, when a pre-tool ask is about to reach the attached prompter',
    notReplayed: 'the person\'s answer the request stood in for is not in the log; replay re-decides the pre-tool ask',
  },
  'agent/subagent-start': {
    file: null,
    why: 'hookbox\'s loop runs no subagents; agent bridges fire it',
    notReplayed: 'fired by agents only; the subagent\'s context is the agent\'s',
  },
  'agent/subagent-stop': {
    file: null,
    why: 'hookbox\'s loop runs no subagents; agent bridges fire it',
    notReplayed: 'fired by agents only; a continuation changes what the subagent does next, and replay runs no model',
  },
  'agent/notification': {
    file: null,
    why: 'hookbox\'s loop sends its user no notifications (its prompter asks directly); agent bridges fire it',
    notReplayed: 'a notification decides nothing',
  },
  'agent/pre-compact': {
    file: null,
    why: 'hookbox\'s loop never compacts its context; agent bridges fire it',
    notReplayed: 'fired by agents only; the compaction is the agent\'s',
  },
  'agent/session-end': {
    file: 'session.ts',
    firedBy: 'Session.close, once, before the log closes',
    notReplayed: 'session-end decides nothing',
  },
};
