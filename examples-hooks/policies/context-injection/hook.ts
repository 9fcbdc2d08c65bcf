/**
 * context-injection — a catalog policy (`"policy": "context-injection"`):
 * fixed context at session start, with every prompt and for each subagent
 * started. The host validated
 * the config and passes it as JSON in the `policy` config key.
 */
import { allow, block, defineHook } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { parseConfig, promptContext, sessionContext, subagentContext } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'adds fixed context at session start, with every prompt and for each subagent started',
  config: { policy: 'the policy config as JSON ({"sessionStart", "sources", "prompt", "subagentStart", "subagentTypes"}), validated by hookbox' },
  sessionStart(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) {
      // Session start cannot refuse: the broken config is said where the operator looks.
      ctx.log.error(`context-injection: config-error: ${settings.error}`);
      return;
    }
    const additionalContext = sessionContext(payload.source, settings);
    return additionalContext === undefined ? undefined : { additionalContext };
  },
  promptSubmit(_payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return block(`context-injection: config-error: ${settings.error}`);
    const additionalContext = promptContext(settings);
    return additionalContext === undefined ? undefined : allow({ additionalContext });
  },
  subagentStart(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) {
      // A subagent's start cannot be refused either (a notification): logged.
      ctx.log.error(`context-injection: config-error: ${settings.error}`);
      return;
    }
    const additionalContext = subagentContext(payload.agentType, settings);
    return additionalContext === undefined ? undefined : { additionalContext };
  },
});
