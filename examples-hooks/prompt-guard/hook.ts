/**
 * prompt-guard — prompt-submit: blocks prompts that contain secrets; adds the
 * project's conventions (Config `conventions`) to every other prompt's turn.
 */
import { allow, block, defineHook } from '../../pdk/index.ts';
import { judgePrompt } from './policy.ts';

export default defineHook({
  promptSubmit(payload, ctx) {
    const verdict = judgePrompt(payload.content, ctx.config.get('conventions'));
    if (verdict.action === 'block') {
      ctx.log.warn(verdict.reason);
      return block(verdict.reason);
    }
    return allow({ additionalContext: verdict.additionalContext });
  },
});
