/**
 * turn-budget — a catalog policy (`"policy": "turn-budget"`): tool calls per
 * turn and continuations per session, counted per session in Var. The host
 * validated the config and passes it as JSON in the `policy` config key.
 */
import { ask, defineHook, deny } from '../../../pdk/index.ts';
import { cachedConfig } from '../shared/config.ts';
import { STATE_KEY, countCall, countContinuation, parseConfig, readState } from './rules.ts';

const config = cachedConfig(parseConfig);

export default defineHook({
  description: 'refuses tool calls over a per-turn budget, and once the session was forced on more often than allowed',
  config: { policy: 'the policy config as JSON ({"toolCallsPerTurn", "continuationsPerSession", "action"}), validated by hookbox' },
  preTool(_payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`turn-budget: config-error: ${settings.error}`);
    const { state, verdict } = countCall(readState(ctx.state.get(STATE_KEY), ctx.session.id, ctx.session.turn), settings);
    ctx.state.set(STATE_KEY, JSON.stringify(state));
    if (verdict.action === 'allow') return;
    return verdict.action === 'deny' ? deny(verdict.reason) : ask(verdict.reason);
  },
  turnContinuation(payload, ctx) {
    const state = countContinuation(readState(ctx.state.get(STATE_KEY), ctx.session.id, ctx.session.turn), payload.continuations);
    ctx.state.set(STATE_KEY, JSON.stringify(state));
    // A counter only: whether the turn goes on is the other hooks' and the loop guard's.
  },
});
