import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_OPINION, SeamBus, nativeHook } from '../../host/events/index.ts';
import { replaySession } from '../../host/loop/index.ts';
import { type TestWorkspace, events, makeWorkspace, startSession } from '../helpers/session.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace();
});
afterEach(() => workspace.dispose());

const guard = nativeHook({
  name: 'guard',
  tools: ['bash'],
  handlers: {
    'tools/pre-execute': (payload) =>
      String(payload.arguments.command).includes('rm -rf') ? { action: 'deny', reason: 'destructive' } : NO_OPINION,
  },
});
const promptGuard = nativeHook({
  name: 'prompt-guard',
  handlers: {
    'agent/prompt-submit': (payload) => (payload.content.includes('SECRET') ? { action: 'block', reason: 'secret' } : NO_OPINION),
  },
});

describe('replay', () => {
  it('re-decides recorded prompts and tool calls against another hook set without running tools', async () => {
    const session = await startSession(workspace, {
      hooks: [guard, promptGuard],
      script: {
        steps: [
          { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf build' } }, { id: 'c2', name: 'bash', arguments: { command: 'echo ok' } }] },
          { text: 'done' },
        ],
      },
    });
    try {
      await session.prompt('clean the build');
      await session.prompt('my SECRET is 42');
    } finally {
      await session.close();
    }
    const recorded = events(workspace);

    // Same hook set: nothing changes.
    const same = new SeamBus();
    same.use(guard);
    same.use(promptGuard);
    const unchanged = await replaySession(recorded, same);
    expect(unchanged.decisions.filter((d) => d.changed)).toEqual([]);
    expect(unchanged.decisions.map((d) => d.seam)).toEqual([
      'agent/prompt-submit',
      'tools/pre-execute',
      'tools/pre-execute',
      'tools/post-execute',
      'agent/prompt-submit',
    ]);

    // Without the guards: the denied call and the blocked prompt would now pass.
    const report = await replaySession(recorded, new SeamBus());
    const changed = report.decisions.filter((d) => d.changed);
    expect(changed.map((d) => [d.seam, d.subject, d.before.decision, d.after.decision])).toEqual([
      ['tools/pre-execute', 'bash {"command":"rm -rf build"}', { action: 'deny', reason: 'destructive' }, { action: 'allow' }],
      ['agent/prompt-submit', 'my SECRET is 42', { action: 'block', reason: 'secret' }, { action: 'allow' }],
    ]);
    expect(changed[0]?.before.hooks).toEqual([{ hook: 'guard', applied: { action: 'deny', reason: 'destructive' } }]);
    expect(changed[0]?.after.hooks).toEqual([]);
    // Nothing ran: the log is unchanged by replay.
    expect(events(workspace)).toEqual(recorded);
  });

  it('names the seams it does not re-decide, from the loop\'s seam table', async () => {
    const stopper = nativeHook({ name: 'stopper', handlers: { 'agent/turn-continuation': () => ({ action: 'stop' }) } });
    const session = await startSession(workspace, { hooks: [stopper, promptGuard], script: { steps: [{ text: 'done' }] } });
    try {
      await session.prompt('hello');
    } finally {
      await session.close();
    }
    const report = await replaySession(events(workspace), new SeamBus());
    expect(report.notReplayed).toEqual([{ seam: 'agent/turn-continuation', why: expect.stringContaining('replay runs no model') }]);
    expect(report.decisions.map((d) => d.seam)).toEqual(['agent/prompt-submit']);
  });
});
