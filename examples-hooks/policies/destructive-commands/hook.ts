/**
 * destructive-commands — a catalog policy (`"policy": "destructive-commands"`):
 * cloud, infrastructure, Kubernetes and database commands that destroy what
 * the repository cannot bring back. The host validated the config and passes
 * it as JSON in the `policy` config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeCall, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'denies or asks for destructive cloud, infrastructure, Kubernetes and database commands',
  config: { policy: 'the policy config as JSON ({"action", "allow"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`destructive-commands: config-error: ${settings.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, settings, ctx.session.cwd);
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
