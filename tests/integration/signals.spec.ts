// Signals through the real runner: a TypeScript hook built by the real compiler reads the
// operator's declared commands with the PDK's signal(); real processes run on the main thread,
// the answer crosses to the hook's worker. Granted and ungranted names, one run per event shared
// by every hook of the event, the signal's timeout (its process group killed) and a program that
// cannot start as typed faults, the output cap, and the run in the session log.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedHook, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { SeamBus } from '../../host/events/index.ts';
import { HookRunner } from '../../host/runner/index.ts';
import type { SessionInfo } from '../../host/seams/index.ts';
import { buildInto, writeHookSource } from '../pdk/support.ts';
import { type TestWorkspace, events, makeWorkspace, startSession } from '../helpers/session.ts';

const READER = `import { ask, defineHook, signal, SignalError } from PDK;

export default defineHook({
  capabilities: { signals: ['*'] },
  preTool(payload) {
    const name = String(payload.arguments.signal ?? 'count');
    try {
      const out = signal(name);
      return ask(JSON.stringify({ exitCode: out.exitCode, stdout: out.stdout.slice(0, 200), stdoutLength: out.stdout.length, truncated: out.truncated }));
    } catch (error) {
      if (error instanceof SignalError) return ask(JSON.stringify({ refused: error.code, message: error.message }));
      throw error;
    }
  },
});
`;

let workspace: TestWorkspace;
let runner: HookRunner;
let hooks: LoadedHook[];
let configPath: string;
let hookJson: string;

const node = process.execPath;
const session = (): SessionInfo => ({ id: 'signals-test', turn: 1, step: 0, cwd: workspace.dir });
const payload = (signal: string) => ({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'true', signal } });

/** One event through the hooks named (in config order); each hook's parsed answer or fault. */
async function dispatch(names: readonly string[], signal: string) {
  const bus = new SeamBus();
  for (const hook of hooks) if (names.includes(hook.name)) bus.use(hook);
  const result = await bus.dispatch('tools/pre-execute', payload(signal), session());
  return result.invocations.map((invocation) => ({
    hook: invocation.hook,
    answer: invocation.outcome === 'decision' ? (JSON.parse((invocation.decision as { reason: string }).reason) as Record<string, unknown>) : undefined,
    fault: invocation.fault,
    signals: invocation.signals,
  }));
}

function runs(): number {
  const file = join(workspace.dir, 'runs.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
}

beforeAll(async () => {
  workspace = makeWorkspace('hookbox-signals-');
  const built = await buildInto(workspace.dir, await writeHookSource(workspace.dir, 'reader', READER), 'reader');
  hookJson = built.manifestPath as string;
  writeFileSync(join(workspace.dir, 'count.mjs'), "import { appendFileSync } from 'node:fs';\nappendFileSync('runs.txt', 'run\\n');\nconsole.log('hello from count');\nconsole.error('warned');\nprocess.exit(3);\n");
  writeFileSync(join(workspace.dir, 'slow.mjs'), "import { writeFileSync } from 'node:fs';\nwriteFileSync('slow.pid', String(process.pid));\nsetTimeout(() => {}, 120_000);\n");
  configPath = join(workspace.dir, 'hookbox.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      signals: {
        count: { argv: [node, 'count.mjs'] },
        big: { argv: [node, '-e', "process.stdout.write('x'.repeat(200000))"], maxOutputBytes: 1000 },
        slow: { argv: [node, 'slow.mjs'], timeoutMs: 1500 },
        missing: { argv: ['/nonexistent/hookbox-signal-program'] },
      },
      hooks: [
        // Generous timeouts: a loaded machine must not turn an instantiation into a load error.
        { name: 'a', manifest: hookJson, timeoutMs: 30_000, grant: { signals: ['count', 'big', 'slow', 'missing'] } },
        { name: 'b', manifest: hookJson, timeoutMs: 30_000, grant: { signals: ['count'] } },
        { name: 'c', manifest: hookJson, timeoutMs: 30_000 },
      ],
    }),
  );
  const config = loadOperatorConfig(configPath);
  runner = await HookRunner.start(config.runner);
  hooks = await loadHooks(config, runner);
}, 240_000);

afterAll(async () => {
  await Promise.all((hooks ?? []).map((hook) => hook.close()));
  await runner?.close();
  workspace?.dispose();
});

describe('signals', () => {
  it('a granted signal runs in its folder and the hook reads its exit code and output', async () => {
    const [a] = await dispatch(['a'], 'count');
    expect(a?.answer).toEqual({ exitCode: 3, stdout: 'hello from count\n', stdoutLength: 17, truncated: false });
    expect(a?.signals).toEqual([
      { name: 'count', program: node, exitCode: 3, durationUs: expect.any(Number), stdoutBytes: 17, stderrBytes: 7, truncated: false, timedOut: false, shared: false },
    ]);
  });

  it('runs once per event: the second hook of the event shares the first run; the next event runs it again', async () => {
    const before = runs();
    const answers = await dispatch(['a', 'b'], 'count');
    expect(answers.map((x) => x.answer?.stdout)).toEqual(['hello from count\n', 'hello from count\n']);
    expect(answers.map((x) => x.signals?.[0]?.shared)).toEqual([false, true]);
    expect(runs()).toBe(before + 1);
    await dispatch(['a', 'b'], 'count');
    expect(runs()).toBe(before + 2);
  });

  it('a name not granted to the hook is a SignalError the hook can catch, and nothing runs', async () => {
    const before = runs();
    const [b] = await dispatch(['b'], 'big');
    expect(b?.answer).toEqual({ refused: 'not-granted', message: 'signal "big" is not granted to hook "b" (granted: count)' });
    const [c] = await dispatch(['c'], 'count');
    expect(c?.answer).toEqual({ refused: 'not-granted', message: 'signal "count" is not granted: the operator granted this hook no signal' });
    const [a] = await dispatch(['a'], 'rm -rf /');
    expect(a?.answer?.refused).toBe('not-granted');
    expect(runs()).toBe(before);
  });

  it('caps each stream at maxOutputBytes', async () => {
    const [a] = await dispatch(['a'], 'big');
    expect(a?.answer).toMatchObject({ stdoutLength: 1000, truncated: true });
    expect(a?.signals?.[0]).toMatchObject({ name: 'big', exitCode: 0, stdoutBytes: 1000, truncated: true });
  });

  it('a signal past its timeout is a timeout fault of the hook, its process killed', async () => {
    const [a] = await dispatch(['a'], 'slow');
    expect(a?.fault?.kind).toBe('timeout');
    expect(a?.fault?.message).toMatch(/^signal "slow" \(.*hookbox\.config\.json: signals\.slow\) did not finish within its 1500 ms and was killed$/);
    expect(a?.signals?.[0]).toMatchObject({ name: 'slow', exitCode: null, timedOut: true });
    const pid = Number(readFileSync(join(workspace.dir, 'slow.pid'), 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('a program that cannot start is a plugin-error fault naming it', async () => {
    const [a] = await dispatch(['a'], 'missing');
    expect(a?.fault?.kind).toBe('plugin-error');
    expect(a?.fault?.message).toContain('cannot start /nonexistent/hookbox-signal-program');
    expect(a?.fault?.message).toContain('ENOENT');
  });

  it('every run is in the session log with the invocation that read it', async () => {
    const log = makeWorkspace('hookbox-signals-log-');
    try {
      const bash = { id: 't1', name: 'bash', arguments: { command: 'true', signal: 'count' } };
      const s = await startSession(log, { hooks: hooks.filter((hook) => hook.name === 'a' || hook.name === 'b'), script: { steps: [{ toolCalls: [bash] }, { text: 'done' }] } });
      try {
        await s.prompt('go');
      } finally {
        s.close();
      }
      const invokes = events(log).filter((event) => event.type === 'hook/invoke' && event.seam === 'tools/pre-execute');
      expect(invokes.map((event) => (event.type === 'hook/invoke' ? event.signals?.map((run) => [run.name, run.program, run.exitCode, run.stdoutBytes, run.shared]) : undefined))).toEqual([
        [['count', node, 3, 17, false]],
        [['count', node, 3, 17, true]],
      ]);
    } finally {
      log.dispose();
    }
  });
});

describe('signal config', () => {
  it('a grant of an undeclared signal names the file and the JSON path', () => {
    const file = join(workspace.dir, 'bad.config.json');
    writeFileSync(file, JSON.stringify({ signals: { lint: { argv: ['eslint', '.'] } }, hooks: [{ name: 'x', manifest: hookJson, grant: { signals: ['lint', 'test'] } }] }));
    expect(() => loadOperatorConfig(file)).toThrow(ConfigError);
    expect(() => loadOperatorConfig(file)).toThrow(`${file}: hooks[0].grant.signals[1]: signal "test" is not declared (declared: lint)`);
  });

  it('argv is a list of strings, never a shell line', () => {
    const file = join(workspace.dir, 'shell.config.json');
    writeFileSync(file, JSON.stringify({ signals: { lint: { argv: 'eslint . | tee out' } }, hooks: [] }));
    expect(() => loadOperatorConfig(file)).toThrow(/signals\.lint\.argv/);
  });
});
