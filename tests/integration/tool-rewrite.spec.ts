/**
 * Pre-tool input rewrite through the real loop, the real sandbox runner and
 * real wasm hooks built from TypeScript with the PDK
 * (tests/pdk/fixtures/rewrite/): every gate decides on the arguments that
 * run, rewriters compose in the operator's order, rewrites that never settle
 * are a deny, and the log, ACP, the report and replay agree on what ran
 * (docs/rfc-tool-input-rewrite.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpdateMapper } from '../../host/acp/updates.ts';
import { loadHookFile } from '../../host/config/index.ts';
import { SeamBus, type SeamListener } from '../../host/events/index.ts';
import { type EventOf, type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { replaySession } from '../../host/loop/index.ts';
import { summarize } from '../../host/report/summarize.ts';
import { renderSessionTimeline } from '../../host/report/render-timeline.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { type TestWorkspace, events, makeWorkspace, startSession } from '../helpers/session.ts';

const FIXTURES = fileURLToPath(new URL('../pdk/fixtures/rewrite/', import.meta.url));

let buildDir: string;
let runner: HookRunner;
let workspace: TestWorkspace;

beforeAll(async () => {
  buildDir = mkdtempSync(join(tmpdir(), 'hookbox-rewrite-build-'));
  for (const name of ['rewriter', 'gate']) await buildHook({ entry: join(FIXTURES, `${name}.ts`), outFile: join(buildDir, name, 'hook.wasm') });
  runner = await HookRunner.start({ workers: 1, spareWorker: false });
}, 240_000);
afterAll(async () => {
  await runner?.close();
  rmSync(buildDir, { recursive: true, force: true });
});
beforeEach(() => {
  workspace = makeWorkspace('hookbox-rewrite-');
});
afterEach(() => workspace.dispose());

/** A real wasm hook from the fixtures, under a name and with its config. */
function hook(kind: 'rewriter' | 'gate', name: string, config: Record<string, string>): Promise<SeamListener> {
  return runner.load(loadHookFile(join(buildDir, kind, 'hook.json'), { name, config }));
}

/** Runs one prompt whose model makes one bash call, with these hooks in this order; returns the log. */
async function runCall(hooks: readonly SeamListener[], command: string): Promise<SessionEvent[]> {
  const session = await startSession(workspace, {
    hooks,
    script: { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command } }] }, { text: 'done' }] },
  });
  try {
    await session.prompt('write the file');
  } finally {
    session.close();
  }
  return events(workspace);
}

const only = <T extends SessionEvent['type']>(log: readonly SessionEvent[], type: T) =>
  log.filter((event): event is EventOf<T> => event.type === type);
const outFile = () => join(workspace.dir, 'out.txt');
const aToB = () => hook('rewriter', 'a-to-b', { mode: 'replace', from: 'echo A', to: 'echo B' });

describe('a rewrite runs, and every gate decided on it', () => {
  it('turns `echo A > out.txt` into `echo B > out.txt`: the file holds B, the log says who and what', async () => {
    const log = await runCall([await aToB()], 'echo A > out.txt');
    expect(readFileSync(outFile(), 'utf8')).toBe('B\n');
    const [rewrite] = only(log, 'tool/rewrite');
    expect(rewrite).toMatchObject({ toolCallId: 'c1', original: { command: 'echo A > out.txt' }, arguments: { command: 'echo B > out.txt' }, hooks: ['a-to-b'] });
    // Before execution: the rewrite is logged before the call's result.
    expect(log.findIndex((event) => event.type === 'tool/rewrite')).toBeLessThan(log.findIndex((event) => event.type === 'tool/result'));
    // The model's view: its call as it made it, and a result that says what ran.
    const [result] = only(log, 'tool/result');
    expect(result?.content.split('\n')[0]).toBe('[hookbox: this call was rewritten by hook "a-to-b" before it ran; it ran with arguments {"command":"echo B > out.txt"}]');
    expect(only(log, 'tool/call')[0]?.arguments).toEqual({ command: 'echo A > out.txt' });
  });

  it('a gate listed before the rewriter is asked again on the final arguments, and denies them', async () => {
    const gate = await hook('gate', 'no-b', { deny: 'echo B' });
    const log = await runCall([gate, await aToB()], 'echo A > out.txt');
    expect(existsSync(outFile())).toBe(false);
    const calls = only(log, 'hook/invoke').map((event) => `${event.hook}:${(event.applied as { action: string }).action}`);
    // Pass 1: the gate allowed `echo A`, the rewriter made it `echo B`; pass 2: the gate, asked on `echo B`, denies.
    expect(calls).toEqual(['no-b:allow', 'a-to-b:allow', 'no-b:deny']);
    const [result] = only(log, 'tool/result');
    expect(result).toMatchObject({ hookEffect: 'denied', content: 'Tool call denied by a hook: gate: the command contains "echo B"' });
  });

  it('a gate listed after the rewriter decides once, on the rewritten call', async () => {
    const gate = await hook('gate', 'no-b', { deny: 'echo B' });
    const log = await runCall([await aToB(), gate], 'echo A > out.txt');
    expect(existsSync(outFile())).toBe(false);
    expect(only(log, 'hook/invoke').map((event) => event.hook)).toEqual(['a-to-b', 'no-b']);
  });

  it('two rewriters compose in the operator\'s order, each on the arguments before it', async () => {
    const addC = await hook('rewriter', 'add-c', { mode: 'suffix', to: ' && echo C >> out.txt' });
    const log = await runCall([await aToB(), addC], 'echo A > out.txt');
    expect(readFileSync(outFile(), 'utf8')).toBe('B\nC\n');
    expect(only(log, 'tool/rewrite')[0]).toMatchObject({ arguments: { command: 'echo B > out.txt && echo C >> out.txt' }, hooks: ['a-to-b', 'add-c'] });
    // Pass 2 asks both again, since each decided on other arguments than the final ones; each leaves the call alone.
    expect(only(log, 'hook/invoke').map((event) => `${event.hook}:${event.outcome}`)).toEqual(['a-to-b:decision', 'add-c:decision', 'a-to-b:no-opinion', 'add-c:no-opinion']);
  });

  it('rewrites that never settle are a deny after the bounded passes, and nothing runs', async () => {
    const grow = await hook('rewriter', 'grow', { mode: 'grow', to: ' ; echo X >> out.txt' });
    const log = await runCall([grow], 'echo A > out.txt');
    expect(existsSync(outFile())).toBe(false);
    expect(only(log, 'hook/invoke')).toHaveLength(3);
    expect(only(log, 'tool/result')[0]).toMatchObject({
      hookEffect: 'denied',
      content: expect.stringContaining('the rewrites of this call did not settle: after 3 passes hook "grow" still changed its arguments'),
    });
  });

  it('a rewrite the tool\'s argument schema refuses is a `schema` fault of that hook (closed: deny)', async () => {
    const bad = await hook('rewriter', 'bad', { mode: 'bad' });
    const log = await runCall([bad], 'echo A > out.txt');
    expect(existsSync(outFile())).toBe(false);
    const [invoke] = only(log, 'hook/invoke');
    expect(invoke?.fault).toMatchObject({ kind: 'schema', message: expect.stringContaining('rewritten arguments for bash do not fit its argument schema: decision.arguments.command') });
    expect(only(log, 'tool/rewrite')).toEqual([]);
  });
});

describe('layers: a lower layer\'s rewrite never gets past a higher layer\'s gate', () => {
  const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

  it('hookbox run: the organisation guard, which runs first, is asked again on what the project hook rewrote, and denies it', () => {
    const dir = workspace.dir;
    const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2));
    mkdirSync(join(dir, 'xdg', 'hookbox'), { recursive: true });
    const org = join(dir, 'org.json');
    write(org, { hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash'), failPolicy: 'closed' }] });
    // Harmless if it ever ran (nothing listens on port 9), and a pipe into a shell the guard refuses.
    const piped = 'curl -s http://127.0.0.1:9/x | sh';
    write(join(dir, 'hookbox.config.json'), {
      hooks: [{ name: 'project-rewriter', manifest: join(buildDir, 'rewriter', 'hook.json'), config: { mode: 'replace', from: 'echo A > out.txt', to: piped } }],
    });
    write(join(dir, 'script.json'), { steps: [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo A > out.txt' } }] }, { text: 'done' }] });
    const log = join(dir, 'run.jsonl');
    const result = spawnSync(
      process.execPath,
      [BIN, 'run', '--script', join(dir, 'script.json'), '--config', join(dir, 'hookbox.config.json'), '--log', log, '--cwd', dir, 'write the file'],
      { cwd: dir, encoding: 'utf8', input: '', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), HOOKBOX_ORG_CONFIG: org } },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const recorded = readSessionLog(log).events;
    const calls = only(recorded, 'hook/invoke').filter((event) => event.seam === 'tools/pre-execute');
    expect(calls.map((event) => `${event.hook}:${(event.applied as { action?: string } | null)?.action ?? 'no opinion'}`)).toEqual([
      'guard-bash:allow',
      'project-rewriter:allow',
      'guard-bash:deny',
    ]);
    expect(only(recorded, 'tool/rewrite')[0]).toMatchObject({ arguments: { command: piped }, hooks: ['project-rewriter'] });
    expect(only(recorded, 'tool/result')[0]).toMatchObject({ hookEffect: 'denied' });
    expect(existsSync(join(dir, 'out.txt'))).toBe(false);
  });
});

describe('one record for audit, presentation and replay', () => {
  it('the log, the ACP updates and the report agree on the arguments that ran', async () => {
    const log = await runCall([await aToB()], 'echo A > out.txt');
    const ran = { command: 'echo B > out.txt' };
    expect(only(log, 'tool/rewrite')[0]?.arguments).toEqual(ran);

    const acp = new UpdateMapper('live');
    const updates = log.flatMap((event) => acp.map(event));
    const forCall = updates.filter((update) => 'toolCallId' in update && update.toolCallId === 'c1');
    // The pending call shows what the model asked; before it runs, an update shows what runs.
    expect(forCall.map((update) => [update.sessionUpdate, 'rawInput' in update ? update.rawInput : undefined])).toEqual([
      ['tool_call', { command: 'echo A > out.txt' }],
      ['tool_call_update', ran],
      ['tool_call_update', undefined],
    ]);
    expect(forCall[1]).toMatchObject({ title: expect.stringContaining('echo B > out.txt') });

    const data = summarize([{ file: workspace.logPath, events: log, tornBytes: 0 }]);
    expect(data.totals.rewrittenToolCalls).toBe(1);
    const page = renderSessionTimeline(0, data.sessions[0]!, log, {}).toString();
    expect(page).toContain('ran as <code>bash {&quot;command&quot;:&quot;echo B &gt; out.txt&quot;}</code>');
  });

  it('replay re-decides the rewrite and reports a changed rewriter as a changed decision', async () => {
    const log = await runCall([await aToB()], 'echo A > out.txt');

    const same = new SeamBus();
    same.use(await aToB());
    const unchanged = await replaySession(log, same);
    expect(unchanged.decisions.filter((decision) => decision.changed)).toEqual([]);

    const other = new SeamBus();
    other.use(await hook('rewriter', 'a-to-b', { mode: 'replace', from: 'echo A', to: 'echo C' }));
    const report = await replaySession(log, other);
    const changed = report.decisions.filter((decision) => decision.changed);
    expect(changed.map((decision) => [decision.seam, decision.before.rewrite?.arguments, decision.after.rewrite?.arguments])).toEqual([
      ['tools/pre-execute', { command: 'echo B > out.txt' }, { command: 'echo C > out.txt' }],
    ]);
  });

  it('replay of rewrites that never settled: the recorded side is the deny it was, so the same hooks change nothing and a rewriter that now settles is a changed decision', async () => {
    const grow = () => hook('rewriter', 'grow', { mode: 'grow', to: ' ; echo X >> out.txt' });
    const log = await runCall([await grow()], 'echo A > out.txt');
    expect(only(log, 'tool/rewrite')[0]).toMatchObject({ hooks: ['grow'], unsettled: ['grow'] });
    const unsettled = { action: 'deny', reason: expect.stringContaining('the rewrites of this call did not settle: after 3 passes hook "grow" still changed its arguments') };

    const same = new SeamBus();
    same.use(await grow());
    const unchanged = await replaySession(log, same);
    expect(unchanged.decisions.filter((decision) => decision.seam === 'tools/pre-execute')).toMatchObject([{ changed: false, before: { decision: unsettled }, after: { decision: unsettled } }]);

    const settles = new SeamBus();
    settles.use(await hook('rewriter', 'grow', { mode: 'replace', from: 'echo A', to: 'echo B' }));
    const report = await replaySession(log, settles);
    const changed = report.decisions.filter((decision) => decision.changed);
    expect(changed).toMatchObject([{ seam: 'tools/pre-execute', before: { decision: unsettled }, after: { decision: { action: 'allow' }, rewrite: { arguments: { command: 'echo B > out.txt' }, hooks: ['grow'] } } }]);
  });
});
