/**
 * ci-lockfile-guard — a catalog policy (`"policy": "ci-lockfile-guard"`):
 * denies or asks for edits to CI configuration and lockfiles through any
 * tool. The host validated the config and passes it as JSON in the `policy`
 * config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeCall, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'denies or asks for edits to CI configuration and lockfiles through any tool',
  config: { policy: 'the policy config as JSON ({"ci", "lockfiles", "ciPaths", "lockfilePaths"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`ci-lockfile-guard: config-error: ${settings.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, ctx.session.cwd, settings);
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
