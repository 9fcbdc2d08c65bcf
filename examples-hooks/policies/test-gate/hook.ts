/**
 * test-gate — a catalog policy (`"policy": "test-gate"`): when the agent
 * would end its turn, runs the operator's test signal (granted with
 * `grant.signals`) and keeps the turn going while it fails, up to
 * `maxContinuations`. The logic lives in `rules.ts`.
 */
import { SignalError, continueTurn, defineHook, signal } from '../../../pdk/index.ts';
import { continuationReason, gateOpen, parseConfig } from './rules.ts';

export default defineHook({
  description: 'keeps the turn going while the operator\'s test signal fails, up to maxContinuations times',
  config: { policy: 'the policy config as JSON ({"signal": "<name>", "maxContinuations": n, "maxChars": n}), validated by hookbox when it loads the config' },
  capabilities: { signals: ['*'] },
  turnContinuation(payload, ctx) {
    const config = parseConfig(ctx.config.get('policy'));
    if ('error' in config) return payload.continuations < 1 ? continueTurn(`test-gate: config-error: ${config.error}`) : undefined;
    if (!gateOpen(payload.continuations, config)) return;
    try {
      const reason = continuationReason(signal(config.signal), config);
      return reason === undefined ? undefined : continueTurn(reason);
    } catch (error) {
      if (error instanceof SignalError) return payload.continuations < 1 ? continueTurn(`test-gate: config-error: ${error.message}`) : undefined;
      throw error;
    }
  },
});
