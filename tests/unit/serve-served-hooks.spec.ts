/**
 * `loadServedHooks`: the config's hooks on one bus for a server — a shell
 * hook as it is, a wasm hook behind a per-session quarantine (its own
 * `quarantineAfter`, else the runner's default), the runner's per-hook
 * quarantine off; the config's identity and `log.keepReplacedOriginals`;
 * a hook that cannot load fails the load. Real config files, a real
 * runner and a real trapping wasm hook from the hostile corpus.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_QUARANTINE_AFTER } from '../../host/runner/index.ts';
import { configIdentity } from '../../host/serve/config-identity.ts';
import { type ServedHooks, loadServedHooks } from '../../host/serve/index.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

let dir: string;
let opened: ServedHooks[];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-served-hooks-'));
  opened = [];
});
afterEach(async () => {
  for (const hooks of opened) await hooks.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(config: unknown): string {
  const file = path.join(dir, 'hookbox.config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}
async function load(config: unknown): Promise<ServedHooks> {
  const hooks = await loadServedHooks(writeConfig(config));
  opened.push(hooks);
  return hooks;
}
const session = (id: string) => ({ id, turn: 1, step: 1, cwd: dir });
const readFile = { toolCallId: 't', toolName: 'read_file', arguments: { path: 'a' } };
/** The reasons of `calls` pre-tool calls in `sessionId`, one after another. */
async function reasons(hooks: ServedHooks, sessionId: string, calls: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < calls; i += 1) {
    const { decision } = await hooks.bus.dispatch('tools/pre-execute', readFile, session(sessionId));
    out.push(decision.action === 'allow' ? 'allow' : (decision.reason ?? ''));
  }
  return out;
}
const kind = (reason: string) => (reason.includes('quarantined in this session') ? 'quarantined' : reason.includes('failed (trap)') ? 'trap' : reason);

describe('loadServedHooks', () => {
  it("a shell hook decides on the bus; the config's identity and log switch come with it", async () => {
    const config = { hooks: [{ name: 'no', command: "echo 'not today' >&2; exit 2", protocol: 'claude-code', unsandboxed: true, seams: ['tools/pre-execute'] }] };
    const hooks = await load(config);
    expect({ config: hooks.config, keep: hooks.keepReplacedOriginals }).toStrictEqual({ config: configIdentity(path.join(dir, 'hookbox.config.json')), keep: false });
    expect((await hooks.bus.dispatch('tools/pre-execute', readFile, session('a'))).decision).toStrictEqual({ action: 'deny', reason: 'not today' });
    hooks.forgetSession('a');
    const keeping = await load({ ...config, log: { keepReplacedOriginals: true } });
    expect(keeping.keepReplacedOriginals).toBe(true);
  });

  it("a wasm hook is quarantined per session after its own quarantineAfter; other sessions still run it; forgetting a session starts it again", { timeout: 120_000 }, async () => {
    const trap = await writeCorpusWasm('trap', path.join(dir, 'wasm'));
    const hooks = await load({ hooks: [{ name: 'trap', wasm: trap, seams: ['tools/pre-execute'], quarantineAfter: 2 }] });
    expect((await reasons(hooks, 'a', 3)).map(kind)).toStrictEqual(['trap', 'trap', 'quarantined']);
    // The runner's own per-hook quarantine is off: session b still runs it, past any count.
    expect((await reasons(hooks, 'b', 2)).map(kind)).toStrictEqual(['trap', 'trap']);
    hooks.forgetSession('a');
    expect((await reasons(hooks, 'a', 1)).map(kind)).toStrictEqual(['trap']);
  });

  it('a wasm hook with no quarantineAfter of its own takes the default', { timeout: 120_000 }, async () => {
    const trap = await writeCorpusWasm('trap', path.join(dir, 'wasm'));
    const hooks = await load({ hooks: [{ name: 'trap', wasm: trap, seams: ['tools/pre-execute'] }] });
    const expected = [...Array<string>(DEFAULT_QUARANTINE_AFTER).fill('trap'), 'quarantined'];
    expect((await reasons(hooks, 'a', DEFAULT_QUARANTINE_AFTER + 1)).map(kind)).toStrictEqual(expected);
  });

  it('a hook that cannot be loaded fails the load', async () => {
    const file = writeConfig({ hooks: [{ name: 'gone', wasm: path.join(dir, 'missing.wasm'), seams: ['tools/pre-execute'] }] });
    await expect(loadServedHooks(file)).rejects.toThrow(/missing\.wasm/);
  });
});
