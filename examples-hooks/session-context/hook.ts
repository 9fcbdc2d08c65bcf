/**
 * session-context — session-start: injects the team rules (Config
 * `teamRules`) on startup and a resume note (Config `resumeNote`) on resume.
 */
import { defineHook } from '../../pdk/index.ts';
import { sessionContext } from './policy.ts';

export default defineHook({
  sessionStart(payload, ctx) {
    const additionalContext = sessionContext(payload.source, {
      teamRules: ctx.config.get('teamRules'),
      resumeNote: ctx.config.get('resumeNote'),
    });
    return additionalContext === undefined ? undefined : { additionalContext };
  },
});
