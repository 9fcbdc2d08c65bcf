/**
 * network-egress — a catalog policy (`"policy": "network-egress"`): the hosts
 * shell downloaders, fetch tools and MCP tools reach, against an allow list
 * and a deny list. The host validated the config and passes it as JSON in
 * the `policy` config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeCall, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'denies or asks for hosts reached by shell downloaders, fetch tools and MCP tools, by allow list and deny list',
  config: { policy: 'the policy config as JSON ({"allow", "deny", "unlisted"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`network-egress: config-error: ${settings.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, settings);
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
