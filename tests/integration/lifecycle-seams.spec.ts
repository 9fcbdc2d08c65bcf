/**
 * The seams of issue #51 in hookbox's own loop, through the real runner and
 * real wasm hooks: agent/session-end when a session closes (the audit-trail
 * example logs it), tools/permission-request where the prompter would ask
 * (a PDK hook built here answers for the person, or leaves it to them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHookFile } from '../../host/config/index.ts';
import { SeamBus } from '../../host/events/index.ts';
import type { PermissionPrompter, PermissionRequest } from '../../host/loop/index.ts';
import { Session } from '../../host/loop/index.ts';
import { ScriptedProvider } from '../../host/providers/scripted.ts';
import { HookRunner, type HookLogEntry } from '../../host/runner/index.ts';
import { builtinTools } from '../../host/tools/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { SEAM_FIRING, replaySession } from '../../host/loop/index.ts';
import { hookStats, sessionFindings } from '../../host/report/index.ts';
import { type TestWorkspace, events, makeWorkspace } from '../helpers/session.ts';
import { buildInto, tempDir, writeHookSource } from '../pdk/support.ts';

/** Asks before every bash call; answers the permission request for the person: `ls` allowed, `rm` denied, anything else left to them. */
const GATE_SOURCE = `import { allow, ask, defineHook, deny } from PDK;
export default defineHook({
  preTool: (p) => (p.toolName === 'bash' ? ask('bash needs a person') : undefined),
  permissionRequest(p) {
    const command = String(p.arguments.command ?? '');
    if (command.startsWith('ls')) return allow({ reason: 'listing is harmless' });
    if (command.startsWith('rm')) return deny('no deleting, whoever asks');
    return ask();
  },
  sessionEnd: () => ({}),
});
`;

let runner: HookRunner;
let gateManifest: string;
let cleanup: () => Promise<void>;
const logs: HookLogEntry[] = [];

beforeAll(async () => {
  const temp = await tempDir();
  cleanup = temp.cleanup;
  const built = await buildInto(temp.dir, await writeHookSource(temp.dir, 'permission-gate', GATE_SOURCE), 'permission-gate');
  if (built.manifestPath === undefined) throw new Error('the permission gate built without a manifest');
  gateManifest = built.manifestPath;
  runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
}, 240_000);

afterAll(async () => {
  await runner?.close();
  await cleanup?.();
});

/** A prompter standing in for the person at the terminal: records each question, answers as told. */
function person(answer: 'allow' | 'deny'): PermissionPrompter & { readonly asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return { asked, ask: async (request) => (asked.push(request), answer) };
}

async function open(workspace: TestWorkspace, manifests: readonly string[], steps: ConstructorParameters<typeof ScriptedProvider>[0]['steps'], prompter?: PermissionPrompter) {
  const bus = new SeamBus();
  for (const manifest of manifests) bus.use(await runner.load(loadHookFile(manifest)));
  return Session.start({
    cwd: workspace.dir,
    logPath: workspace.logPath,
    tools: builtinTools(),
    provider: new ScriptedProvider({ steps }),
    bus,
    ...(prompter !== undefined && { prompter }),
  });
}

const bash = (id: string, command: string) => ({ id, name: 'bash', arguments: { command } });

describe('agent/session-end in the loop', () => {
  it('fires once when the session closes, before the log closes; audit-trail logs it', async () => {
    const workspace = makeWorkspace();
    try {
      const session = await open(workspace, [exampleManifest('audit-trail')], [{ text: 'done' }]);
      await session.prompt('hello');
      logs.length = 0;
      await session.close();
      await session.close();
      const ends = events(workspace).filter((event) => event.type === 'hook/invoke' && event.seam === 'agent/session-end');
      expect(ends).toHaveLength(1);
      expect(ends[0]).toMatchObject({ hook: 'audit-trail', outcome: 'no-opinion' });
      const lines = logs.map((entry) => JSON.parse(entry.message) as Record<string, unknown>);
      expect(lines).toEqual([expect.objectContaining({ seam: 'agent/session-end', session: session.id, detail: { reason: 'exit' } })]);
    } finally {
      workspace.dispose();
    }
  });
});

describe('tools/permission-request in the loop', () => {
  it('a hook allows for the person: the tool runs and the person is not asked', async () => {
    const workspace = makeWorkspace();
    const prompter = person('deny');
    try {
      const session = await open(workspace, [gateManifest], [{ toolCalls: [bash('c1', 'ls')] }, { text: 'done' }], prompter);
      await session.prompt('list');
      await session.close();
      expect(prompter.asked).toEqual([]);
      const result = events(workspace).find((event) => event.type === 'tool/result');
      expect(result).toMatchObject({ isError: false });
      const ask = events(workspace).find((event) => event.type === 'tool/ask');
      expect(ask).toMatchObject({ answer: 'allow', reason: 'bash needs a person (allowed by a permission-request hook: listing is harmless)' });
    } finally {
      workspace.dispose();
    }
  });

  it('a hook denies for the person: the tool does not run, the model sees why, the person is not asked', async () => {
    const workspace = makeWorkspace();
    const prompter = person('allow');
    try {
      const session = await open(workspace, [gateManifest], [{ toolCalls: [bash('c1', 'rm -rf build')] }, { text: 'done' }], prompter);
      await session.prompt('clean');
      await session.close();
      expect(prompter.asked).toEqual([]);
      const result = events(workspace).find((event) => event.type === 'tool/result');
      expect(result).toMatchObject({ isError: true, hookEffect: 'denied', content: expect.stringContaining('no deleting, whoever asks') });
    } finally {
      workspace.dispose();
    }
  });

  it('no opinion: the person is asked as usual, and their answer stands', async () => {
    const workspace = makeWorkspace();
    const prompter = person('deny');
    try {
      const session = await open(workspace, [gateManifest], [{ toolCalls: [bash('c1', 'echo hi')] }, { text: 'done' }], prompter);
      await session.prompt('greet');
      await session.close();
      expect(prompter.asked.map((request) => request.toolCall.arguments)).toEqual([{ command: 'echo hi' }]);
      const invoked = events(workspace).filter((event) => event.type === 'hook/invoke' && event.seam === 'tools/permission-request');
      expect(invoked).toEqual([expect.objectContaining({ outcome: 'decision', decision: { action: 'ask' } })]);
      expect(events(workspace).find((event) => event.type === 'tool/result')).toMatchObject({ isError: true, hookEffect: 'denied' });
    } finally {
      workspace.dispose();
    }
  });

  it('without a prompter nobody would be asked: the hooks are not asked either, and the ask is a deny', async () => {
    const workspace = makeWorkspace();
    try {
      const session = await open(workspace, [gateManifest], [{ toolCalls: [bash('c1', 'ls')] }, { text: 'done' }]);
      await session.prompt('list');
      await session.close();
      expect(events(workspace).filter((event) => event.type === 'hook/invoke' && event.seam === 'tools/permission-request')).toEqual([]);
      expect(events(workspace).find((event) => event.type === 'tool/result')).toMatchObject({ isError: true, hookEffect: 'denied' });
    } finally {
      workspace.dispose();
    }
  });
});

describe('the report and replay on the lifecycle seams', () => {
  it('a permission-request deny is a finding on its tool call, its ask is none; an empty session-end answer counts as empty; replay leaves both alone and says why', async () => {
    const workspace = makeWorkspace();
    try {
      const steps = [{ toolCalls: [bash('c1', 'rm -rf build')] }, { toolCalls: [bash('c2', 'echo hi')] }, { text: 'done' }];
      const session = await open(workspace, [gateManifest], steps, person('allow'));
      await session.prompt('clean, then greet');
      await session.close();
      const log = events(workspace);

      const findings = sessionFindings(0, log).filter((finding) => finding.seam === 'tools/permission-request');
      expect(findings).toEqual([expect.objectContaining({ action: 'deny', reason: 'no deleting, whoever asks', subject: 'bash {"command":"rm -rf build"}' })]);
      const [gate] = hookStats(log.flatMap((event) => (event.type === 'hook/invoke' ? [event] : [])));
      expect(gate?.decisions).toEqual({ ask: 3, deny: 1, empty: 1 });

      const replay = await replaySession(log, new SeamBus());
      expect(replay.notReplayed).toEqual(
        expect.arrayContaining([
          { seam: 'tools/permission-request', why: SEAM_FIRING['tools/permission-request'].notReplayed },
          { seam: 'agent/session-end', why: SEAM_FIRING['agent/session-end'].notReplayed },
        ]),
      );
    } finally {
      workspace.dispose();
    }
  });
});
