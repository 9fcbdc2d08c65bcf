/**
 * file-limits — a catalog policy (`"policy": "file-limits"`): the size of
 * what one call writes into a file, and binary content. The host validated
 * the config and passes it as JSON in the `policy` config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { judgeCall, parseConfig } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'denies or asks for writes over a size limit or of binary content',
  config: { policy: 'the policy config as JSON ({"maxBytes", "oversize", "binary"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`file-limits: config-error: ${settings.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, settings);
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
