/**
 * guard-bash — pre-tool gate for the `bash` tool: denies destructive commands,
 * asks before `git push`, allows the rest. The logic lives in `policy.ts`.
 */
import { allow, ask, defineHook, deny } from '../../pdk/index.ts';
import { checkBashArguments, parseDenyPatterns } from './policy.ts';

// Config is fixed for a plugin instance; compile the operator's patterns once per distinct value
// (an unset key included: `parsed` says whether `cachedRaw` holds a value read yet).
let parsed = false;
let cachedRaw: string | undefined;
let cachedPatterns: ReturnType<typeof parseDenyPatterns> = { patterns: [] };

function denyPatterns(raw: string | undefined): ReturnType<typeof parseDenyPatterns> {
  if (!parsed || raw !== cachedRaw) {
    parsed = true;
    cachedRaw = raw;
    cachedPatterns = parseDenyPatterns(raw);
  }
  return cachedPatterns;
}

export default defineHook({
  preTool(payload, ctx) {
    if (payload.toolName !== 'bash') return;
    const patterns = denyPatterns(ctx.config.get('denyPatterns'));
    // A broken operator pattern fails closed: better a loud deny than a silent hole.
    if ('error' in patterns) return deny(`guard-bash: config-error: ${patterns.error}`);
    const verdict = checkBashArguments(payload.arguments, { cwd: ctx.session.cwd, denyPatterns: patterns.patterns });
    if (verdict.action === 'deny') return deny(verdict.reason);
    if (verdict.action === 'ask') return ask(verdict.reason);
    return allow();
  },
});
