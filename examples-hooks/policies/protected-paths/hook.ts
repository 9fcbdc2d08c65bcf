/**
 * protected-paths — a catalog policy (`"policy": "protected-paths"`): denies
 * writing, editing, deleting or moving a protected path through any tool.
 * The host validated the config (`host/catalog/`) and passes it as JSON in
 * the `policy` config key; the logic lives in `rules.ts`.
 */
import { allow, defineHook, deny } from '../../../pdk/index.ts';
import { compileConfig, judgeCall } from './rules.ts';

// Config is fixed for a plugin instance: compile the globs once per distinct value.
let cachedRaw: string | undefined;
let cached: ReturnType<typeof compileConfig> | undefined;

export default defineHook({
  description: 'denies writing, editing, deleting or moving a protected path through any tool',
  config: { policy: 'the policy config as JSON ({"paths": ["<glob>", …]}), validated by hookbox when it loads the config' },
  preTool(payload, ctx) {
    const raw = ctx.config.get('policy');
    if (cached === undefined || raw !== cachedRaw) {
      cachedRaw = raw;
      cached = compileConfig(raw);
    }
    // A broken config fails closed: a loud deny rather than a silent hole.
    if ('error' in cached) return deny(`protected-paths: config-error: ${cached.error}`);
    const verdict = judgeCall(payload.toolName, payload.arguments, ctx.session.cwd, cached);
    return verdict.action === 'deny' ? deny(verdict.reason) : allow();
  },
});
