/**
 * command-rules — a catalog policy (`"policy": "command-rules"`): the
 * operator's deny / ask / allow rules on normalised shell commands. The host
 * validated the config and passes it as JSON in the `policy` config key.
 */
import { allow, ask, defineHook, deny } from '../../../pdk/index.ts';
import { compileConfig, judgeCall } from './rules.ts';

let cachedRaw: string | undefined;
let cached: ReturnType<typeof compileConfig> | undefined;

export default defineHook({
  description: 'deny / ask / allow rules on every program a shell command runs, normalised as guard-bash does',
  config: { policy: 'the policy config as JSON ({"rules": [{"command", "action", "reason"?}]}), validated by hookbox when it loads the config' },
  preTool(payload, ctx) {
    const raw = ctx.config.get('policy');
    if (cached === undefined || raw !== cachedRaw) {
      cachedRaw = raw;
      cached = compileConfig(raw);
    }
    if ('error' in cached) return deny(`command-rules: config-error: ${cached.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, cached);
    if (verdict.action !== 'allow') return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
    // An allow rule says so: the coverage sees which rule let it through.
    return verdict.rule === undefined ? undefined : allow({ reason: `command-rules: allow: rules[${verdict.rule}]` });
  },
});
