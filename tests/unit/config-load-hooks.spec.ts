/**
 * `loadHooks` turns every entry of a config into a live hook: a `permissions`
 * entry into a native rule hook, a `command` entry into a shell hook (with
 * each of its settings reaching the command), a wasm entry into the runner.
 * A failing entry closes what loaded before it. `effectiveLimits` is what
 * `setup` reads. Real files in a temp folder, real wasm, a real runner.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ResolvedHookEntry, effectiveLimits, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { HookRunner } from '../../host/runner/index.ts';
import type { PayloadOf, SessionInfo } from '../../host/seams/index.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

let dir: string;
let file: string;
let session: SessionInfo;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-load-hooks-'));
  file = path.join(dir, 'hookbox.config.json');
  session = { id: 'sess-1', turn: 1, step: 1, cwd: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function configWith(hooks: unknown[]) {
  writeFileSync(file, JSON.stringify({ hooks }));
  return loadOperatorConfig(file);
}

/** A resolved entry as the config loader makes them, built by hand to reach what the schema already refuses. */
function entry(fields: Partial<ResolvedHookEntry>): ResolvedHookEntry {
  return { name: 'h', file, at: 'hooks[0]', limits: {}, config: {}, grant: {}, ...fields };
}

async function withRunner<T>(use: (runner: HookRunner) => Promise<T>): Promise<T> {
  const runner = await HookRunner.start({ workers: 1 });
  try {
    return await use(runner);
  } finally {
    await runner.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error,
  );
}

const bash = (command: string): PayloadOf<'tools/pre-execute'> => ({ toolCallId: 'c1', toolName: 'bash', arguments: { command } });
const shell = { command: 'true', unsandboxed: true, protocol: 'claude-code', seams: ['tools/pre-execute'] };

describe('loadHooks: a permissions entry', () => {
  it('loads as a native hook, failing closed, that answers with its rules', async () => {
    const config = configWith([{ name: 'rules', permissions: { deny: ['Bash(rm:*)'], root: '.' } }]);
    const [hook] = await withRunner((runner) => loadHooks(config, runner));
    expect(hook).toMatchObject({ name: 'rules', sandbox: 'native', seams: ['tools/pre-execute'], failPolicy: 'closed' });
    const denied = await invokeListener(hook!, 'tools/pre-execute', bash('rm -rf build'), { action: 'allow' }, session);
    expect(denied.decision).toEqual({ action: 'deny', reason: 'denied by the imported Claude Code rule permissions.deny[0] "Bash(rm:*)"' });
    const other = await invokeListener(hook!, 'tools/pre-execute', bash('ls'), { action: 'allow' }, session);
    expect(other.decision).toBeNull();
  });

  it('a rule it cannot enforce is a ConfigError naming the config file, the entry and the rule', async () => {
    const config = configWith([{ name: 'rules', permissions: { ask: ['Frobnicate(x)'], root: '.' } }]);
    const error = await withRunner((runner) => rejection(loadHooks(config, runner)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: hooks[0].permissions.ask[0]: "Frobnicate(x)" cannot be enforced: hookbox has no Frobnicate tool to apply "x" to`);
  });
});

describe('loadHooks: a command entry', () => {
  it('loads as a shell hook with its command, protocol, seams, tools and fail policy', async () => {
    const config = configWith([
      { ...shell, name: 'set', tools: ['bash', 'read_.*'], failPolicy: 'closed' },
      { ...shell, name: 'bare', command: 'exit 0', protocol: 'codex' },
    ]);
    const [set, bare] = await withRunner((runner) => loadHooks(config, runner));
    expect(set).toMatchObject({ name: 'set', sandbox: 'shell', command: 'true', protocol: 'claude-code', seams: ['tools/pre-execute'], tools: ['bash', 'read_.*'], failPolicy: 'closed' });
    expect(bare).toMatchObject({ name: 'bare', sandbox: 'shell', command: 'exit 0', protocol: 'codex', seams: ['tools/pre-execute'] });
    expect(bare).not.toHaveProperty('tools');
    expect(bare).not.toHaveProperty('failPolicy');
  });

  it('the command runs with the entry\'s env', async () => {
    const config = configWith([{ ...shell, name: 'env', command: 'cat > /dev/null; printf %s "$HOOK_GREETING" >&2; exit 2', env: { HOOK_GREETING: 'hello from env' } }]);
    const [hook] = await withRunner((runner) => loadHooks(config, runner));
    const { decision } = await invokeListener(hook!, 'tools/pre-execute', bash('ls'), { action: 'allow' }, session);
    expect(decision).toEqual({ action: 'deny', reason: 'hello from env' });
  });

  it("the entry's timeoutMs ends a command that runs too long: a timeout fault", async () => {
    const config = configWith([{ ...shell, name: 'slow', command: 'sleep 5', timeoutMs: 200 }]);
    const [hook] = await withRunner((runner) => loadHooks(config, runner));
    const { invocation } = await invokeListener(hook!, 'tools/pre-execute', bash('ls'), { action: 'allow' }, session);
    expect(invocation.fault).toMatchObject({ kind: 'timeout', message: expect.stringContaining('no answer within 200 ms') });
  });

  it("the entry's maxOutputBytes caps what the command may print: an output-too-large fault", async () => {
    const config = configWith([{ ...shell, name: 'loud', command: 'yes allow | head -c 200000', maxOutputBytes: 1000 }]);
    const [hook] = await withRunner((runner) => loadHooks(config, runner));
    const { invocation } = await invokeListener(hook!, 'tools/pre-execute', bash('ls'), { action: 'allow' }, session);
    expect(invocation.fault).toMatchObject({ kind: 'output-too-large', message: expect.stringContaining('stdout passed 1000 bytes') });
  });

  it("the entry's sources choose the session starts the command runs for", async () => {
    const config = configWith([{ ...shell, name: 'start', command: 'touch ran; echo context', seams: ['agent/session-start'], sources: ['resume'] }]);
    const [hook] = await withRunner((runner) => loadHooks(config, runner));
    const startup = await invokeListener(hook!, 'agent/session-start', { source: 'startup' }, null, session);
    expect(startup.decision).toBeNull();
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    const resume = await invokeListener(hook!, 'agent/session-start', { source: 'resume' }, null, session);
    expect(resume.decision).toEqual({ additionalContext: 'context' });
    expect(existsSync(path.join(dir, 'ran'))).toBe(true);
  });

  it.each([
    ['without a protocol', {}],
    ['with hookbox\'s own protocol 1', { protocol: 1 as const }],
    ['without seams', { protocol: 'claude-code' as const, seams: undefined }],
  ])('an entry %s is refused (a hand-made entry: the schema refuses it first)', async (_what, fields) => {
    const error = await withRunner((runner) => rejection(loadHooks({ hooks: [entry({ command: 'true', seams: ['tools/pre-execute'], ...fields })] }, runner)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${file}: hooks[0]: a "command" hook needs a tool "protocol" and "seams"`);
  });
});

describe('loadHooks: an entry that fails', () => {
  it('closes the hooks loaded before it (the runner holds no instance of them) and rethrows its error', async () => {
    await writeCorpusWasm('allow', dir);
    const good = [{ name: 'allow', wasm: 'allow.wasm' }, { ...shell, name: 'shell' }];
    await withRunner(async (runner) => {
      const loaded = await loadHooks(configWith(good), runner);
      // The observable: a loaded wasm hook holds an instance until it is closed.
      expect(runner.memory.instances).toBe(1);
      await Promise.all(loaded.map((hook) => hook.close()));
      expect(runner.memory.instances).toBe(0);

      const error = await rejection(loadHooks(configWith([...good, { name: 'rules', permissions: { deny: ['Nope(x)'], root: '.' } }]), runner));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toBe(`${file}: hooks[2].permissions.deny[0]: "Nope(x)" cannot be enforced: hookbox has no Nope tool to apply "x" to`);
      expect(runner.memory.instances).toBe(0);
    });
  });
});

describe('effectiveLimits', () => {
  it("without a manifest: the entry's limits", () => {
    const [wasm] = configWith([{ name: 'w', wasm: 'w.wasm', timeoutMs: 70, memoryMb: 9 }]).hooks;
    expect(effectiveLimits(wasm!)).toStrictEqual({ timeoutMs: 70, memoryMb: 9 });
  });

  it("with a manifest: the operator's limits win, the manifest's requests fill the rest", () => {
    const manifest = { name: 'm', version: '1.0.0', wasm: 'm.wasm', sha256: 'a'.repeat(64), seams: ['tools/pre-execute'] };
    writeFileSync(path.join(dir, 'hook.json'), JSON.stringify({ ...manifest, limits: { timeoutMs: 900, memoryMb: 32, maxOutputBytes: 4096 } }));
    writeFileSync(path.join(dir, 'plain.json'), JSON.stringify(manifest));
    const [requests, plain] = configWith([
      { name: 'requests', manifest: 'hook.json', timeoutMs: 100, instructionBudget: 5000 },
      { name: 'plain', manifest: 'plain.json', memoryMb: 4 },
    ]).hooks;
    expect(effectiveLimits(requests!)).toStrictEqual({ timeoutMs: 100, memoryMb: 32, maxOutputBytes: 4096, instructionBudget: 5000 });
    expect(effectiveLimits(plain!)).toStrictEqual({ memoryMb: 4 });
    // An operator limit left undefined does not erase the manifest's request.
    expect(effectiveLimits(entry({ manifest: path.join(dir, 'hook.json'), limits: { timeoutMs: undefined, memoryMb: 8 } }))).toStrictEqual({
      timeoutMs: 900,
      memoryMb: 8,
      maxOutputBytes: 4096,
    });
  });
});
