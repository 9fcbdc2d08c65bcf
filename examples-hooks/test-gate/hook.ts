/**
 * test-gate — post-tool (bash) remembers whether the last test command of the
 * turn failed; turn-continuation keeps the turn going while it did, up to
 * Config `maxContinuations` (default 3).
 */
import { continueTurn, defineHook } from '../../pdk/index.ts';
import { classifyTestRun, continuationReason, maxContinuationsOf, parseRecord, STATE_KEY, testCommandPattern, type TestRunRecord } from './policy.ts';

export default defineHook({
  postTool(payload, ctx) {
    if (payload.toolName !== 'bash') return;
    const { pattern, warning } = testCommandPattern(ctx.config.get('testCommand'));
    if (warning !== undefined) ctx.log.warn(warning);
    const run = classifyTestRun(payload.arguments.command, payload.result, pattern);
    if (run === undefined) return;
    const record: TestRunRecord = { sessionId: ctx.session.id, turn: ctx.session.turn, ...run };
    ctx.state.set(STATE_KEY, JSON.stringify(record));
    ctx.log.info(`test-gate: turn ${record.turn}: test run ${run.failed ? 'failed' : 'passed'}`);
    // An observer only: the result goes on unchanged.
  },
  turnContinuation(payload, ctx) {
    const reason = continuationReason(parseRecord(ctx.state.get(STATE_KEY)), {
      sessionId: ctx.session.id,
      turn: ctx.session.turn,
      continuations: payload.continuations,
      max: maxContinuationsOf(ctx.config.get('maxContinuations')),
    });
    return reason === undefined ? undefined : continueTurn(reason);
  },
});
