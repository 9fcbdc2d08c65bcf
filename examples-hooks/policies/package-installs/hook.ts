/**
 * package-installs — a catalog policy (`"policy": "package-installs"`):
 * installs from outside the allowed registries and `curl | sh` installers.
 * The host validated the config and passes it as JSON in the `policy` config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeCall, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'denies or asks for package installs from outside the allowed registries and curl | sh installers',
  config: { policy: 'the policy config as JSON ({"registries", "pipeToShell", "outside"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`package-installs: config-error: ${settings.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, settings);
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
