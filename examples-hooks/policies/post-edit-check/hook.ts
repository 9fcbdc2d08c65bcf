/**
 * post-edit-check — a catalog policy (`"policy": "post-edit-check"`): after a
 * tool changed a file, runs the operator's check signal (granted with
 * `grant.signals`) and tells the model what failed, or blocks the result.
 * The logic lives in `rules.ts`; the signal runs at most once per event.
 */
import { SignalError, accept, block, defineHook, signal } from '../../../pdk/index.ts';
import { changedFile, judgeCheck, parseConfig } from './rules.ts';

export default defineHook({
  description: 'after a tool changed a file, runs the operator\'s check signal (a linter) and gives its failure to the model, or blocks the result',
  config: { policy: 'the policy config as JSON ({"signal": "<name>", "onFailure": "context"|"block", "maxChars": n}), validated by hookbox when it loads the config' },
  capabilities: { signals: ['*'] },
  postTool(payload, ctx) {
    const config = parseConfig(ctx.config.get('policy'));
    if ('error' in config) return block(`post-edit-check: config-error: ${config.error}`);
    // A call that failed changed nothing the check would be about.
    if (payload.result.isError) return;
    const changed = changedFile(payload.toolName, payload.arguments);
    if (changed === undefined) return;
    let output;
    try {
      output = signal(config.signal);
    } catch (error) {
      if (error instanceof SignalError) return block(`post-edit-check: config-error: ${error.message}`);
      throw error;
    }
    const verdict = judgeCheck(output, changed, config);
    if (verdict.action === 'pass') return;
    return verdict.action === 'block' ? block(verdict.reason) : accept({ additionalContext: verdict.additionalContext });
  },
});
