/**
 * permission-requests — a catalog policy (`"policy": "permission-requests"`):
 * the operator's rules answer the agent's own permission dialog. The host
 * validated the config and passes it as JSON in the `policy` config key.
 */
import { allow, ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeRequest, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: "answers the agent's permission dialog by the operator's rules: read-only tools, named tools, shell commands by the programs they run",
  config: { policy: 'the policy config as JSON ({"readOnly", "tools": [{"tool", "action", "reason"?}], "commands": [{"command", "action", "reason"?}]}), validated by hookbox' },
  permissionRequest(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    // A gate with a broken config answers for no one: deny, saying why.
    if ('error' in settings) return deny(`permission-requests: config-error: ${settings.error}`);
    const verdict = judgeRequest(payload.toolName, payload.arguments, settings);
    if (verdict.action === 'none') return undefined;
    if (verdict.action === 'allow') return allow({ reason: verdict.reason });
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
