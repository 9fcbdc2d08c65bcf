/**
 * session-context's pure policy: which note a starting session gets. Each
 * note is the `context-injection` catalog policy's session-start rule
 * (`injectedAtStart`, one implementation) with this example's sources and
 * texts, unlabelled.
 */
import { injectedAtStart } from '../policies/context-injection/rules.ts';


/** The session-start sources, as the seam defines them. */
export type StartSource = 'startup' | 'resume' | 'clear' | 'compact';

/** The Config values session-context reads. */
export interface SessionContextConfig {
  /** Config `teamRules`: injected on startup (and after `clear`/`compact`, which drop earlier context). */
  readonly teamRules?: string;
  /** Config `resumeNote`: injected on resume instead of the default note. */
  readonly resumeNote?: string;
}

/** What a resumed session is told when the operator set no `resumeNote`. */
export const DEFAULT_RESUME_NOTE =
  'This session was resumed from its log. Earlier turns are above; the workspace may have changed since, ' +
  'so re-check files and command output before relying on them.';

/** Where the team rules go in: `clear` and `compact` drop what the model saw at startup, so they go in again. */
const TEAM_RULES_SOURCES: readonly StartSource[] = ['startup', 'clear', 'compact'];
const RESUME_SOURCES: readonly StartSource[] = ['resume'];

const nonEmpty = (s: string | undefined): string | undefined => (s === undefined || s.trim() === '' ? undefined : s.trim());

/**
 * The additional context for a session start, or `undefined` for none.
 *
 * @example
 * ```ts
 * sessionContext('startup', { teamRules: 'Small commits.' }); // 'Small commits.'
 * sessionContext('resume', {});                                 // DEFAULT_RESUME_NOTE
 * sessionContext('startup', {});                                // undefined
 * ```
 */
export function sessionContext(source: StartSource, config: SessionContextConfig): string | undefined {
  return (
    injectedAtStart(source, nonEmpty(config.resumeNote) ?? DEFAULT_RESUME_NOTE, RESUME_SOURCES) ??
    injectedAtStart(source, nonEmpty(config.teamRules), TEAM_RULES_SOURCES)
  );
}
