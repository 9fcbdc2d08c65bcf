/**
 * git-guards — a catalog policy (`"policy": "git-guards"`): force pushes,
 * `--no-verify`, pushes to protected branches and history rewrites. The host
 * validated the config and passes it as JSON in the `policy` config key.
 */
import { allow, ask, defineHook, deny } from '../../../pdk/index.ts';
import { judgeCall, parseConfig } from './rules.ts';

let cachedRaw: string | undefined;
let cached: ReturnType<typeof parseConfig> | undefined;

export default defineHook({
  description: 'force pushes, --no-verify, pushes to protected branches and history rewrites in any git a shell command runs',
  config: { policy: 'the policy config as JSON ({"protectedBranches": […], "forcePush", "noVerify", "protectedBranch", "historyRewrite"}), validated by hookbox' },
  preTool(payload, ctx) {
    const raw = ctx.config.get('policy');
    if (cached === undefined || raw !== cachedRaw) {
      cachedRaw = raw;
      cached = parseConfig(raw);
    }
    if ('error' in cached) return deny(`git-guards: config-error: ${cached.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, cached);
    if (verdict.action === 'allow') return allow();
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
});
