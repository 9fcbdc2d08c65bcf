/**
 * The in-process agents (pi, OpenCode, Kilo CLI) without their binaries: each bridge's
 * events → seams and tools → hookbox tools, the shared answer vocabulary, the
 * plugin file `setup` writes whole (idempotent, `--remove` exact, a foreign
 * file refused). The plugin client inside the agent, against a real server, is
 * integration/agent-plugin-client.spec.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSeamEvent } from '../../host/agents/index.ts';
import { kiloBridge } from '../../host/agents/kilo/bridge.ts';
import { KILO_TOOLS, fromKiloTool } from '../../host/agents/kilo/tools.ts';
import { openCodeBridge } from '../../host/agents/opencode/bridge.ts';
import { piBridge } from '../../host/agents/pi/bridge.ts';
import { parsePluginFile } from '../../host/agents/plugin-file.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { writeExampleConfig } from '../helpers/examples.ts';

const { printable } = (await import(pathToFileURL(join(import.meta.dirname, '..', '..', 'host', 'agents', 'plugin-client.mjs')).href)) as {
  printable(text: string, multiLine?: boolean): string;
};

const CWD = '/work/project';
const seamOf = (parsed: ReturnType<typeof piBridge.toSeam>): AgentSeamEvent => {
  if (parsed.kind !== 'seam') throw new Error(`expected a seam call, got ${JSON.stringify(parsed)}`);
  return parsed.event;
};

describe('pi bridge: events and tools', () => {
  const base = { session_id: 'pi-1', cwd: CWD };
  it('tool_call: bash, read, write, ls map to hookbox tools; an edit is the write of its new texts; an unknown tool is flagged', () => {
    const call = (tool_name: string, input: Record<string, unknown>) =>
      seamOf(piBridge.toSeam({ ...base, hook_event_name: 'tool_call', tool_name, tool_call_id: 'c1', input })).payload as { toolName: string; arguments: Record<string, unknown> };
    expect(call('bash', { command: 'ls', timeout: 5 })).toEqual({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } });
    expect(call('read', { path: `${CWD}/a.txt` })).toMatchObject({ toolName: 'read_file', arguments: { path: 'a.txt' } });
    expect(call('write', { path: 'b.txt', content: 'x' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'b.txt', content: 'x' } });
    expect(call('edit', { path: 'prod.env', edits: [{ oldText: 'a', newText: 'b' }, { oldText: 'c', newText: 'd' }] })).toMatchObject({
      toolName: 'write_file',
      arguments: { path: 'prod.env', content: 'b\nd' },
    });
    expect(call('ls', {})).toMatchObject({ toolName: 'list_dir', arguments: { path: CWD } });
    expect(call('grep', { pattern: 'x' })).toMatchObject({ toolName: 'grep', arguments: { pattern: 'x' } });
    expect(call('deploy', { to: 'prod' })).toMatchObject({ toolName: 'deploy', arguments: { to: 'prod', _hookbox: { unmappedTool: true } } });
    // A known tool of an unexpected shape is not taken for mapped.
    expect(call('bash', { cmd: 'ls' })).toMatchObject({ toolName: 'bash', arguments: { cmd: 'ls', _hookbox: { unmappedTool: true } } });
  });

  it("tool_result: the text blocks joined; a shell result gets hookbox's exit code ending from pi's", () => {
    const result = (content: unknown[], is_error: boolean) =>
      (seamOf(piBridge.toSeam({ ...base, hook_event_name: 'tool_result', tool_name: 'bash', tool_call_id: 'c1', input: { command: 'x' }, content, is_error })).payload as { result: unknown }).result;
    expect(result([{ type: 'text', text: 'ok\n' }], false)).toEqual({ content: 'ok\n\nexit code: 0', isError: false });
    expect(result([{ type: 'text', text: '1 failed\n\nCommand exited with code 1' }], true)).toEqual({ content: '1 failed\n\nCommand exited with code 1\nexit code: 1', isError: true });
  });

  it('input, session_start and agent_end reach their seams; an unknown event passes with no opinion', () => {
    expect(seamOf(piBridge.toSeam({ ...base, hook_event_name: 'input', text: 'hi', source: 'interactive' })).payload).toEqual({ content: 'hi', source: 'cli' });
    expect(seamOf(piBridge.toSeam({ ...base, hook_event_name: 'session_start' })).seam).toBe('agent/session-start');
    const end = seamOf(piBridge.toSeam({ ...base, hook_event_name: 'agent_end', last_assistant_text: 'done', continued: true }));
    expect(end).toMatchObject({ seam: 'agent/turn-continuation', alreadyContinued: true, payload: { lastAssistantText: 'done' } });
    expect(piBridge.toSeam({ ...base, hook_event_name: 'turn_start' })).toMatchObject({ kind: 'pass' });
  });
});

describe('OpenCode bridge: events and tools', () => {
  const base = { session_id: 'ses_1', cwd: CWD };
  it('tool.execute.before: bash, read, write, edit map; the rest passed under their names', () => {
    const call = (tool_name: string, input: Record<string, unknown>) =>
      seamOf(openCodeBridge.toSeam({ ...base, hook_event_name: 'tool.execute.before', tool_name, tool_call_id: 'c1', input })).payload as Record<string, unknown>;
    expect(call('bash', { command: 'ls', description: 'list' })).toMatchObject({ toolName: 'bash', arguments: { command: 'ls' } });
    expect(call('edit', { filePath: `${CWD}/.env`, oldString: 'a', newString: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: '.env', content: 'b' } });
    expect(call('read', { filePath: '/etc/passwd' })).toMatchObject({ toolName: 'read_file', arguments: { path: '/etc/passwd' } });
    expect(call('webfetch', { url: 'http://x' })).toMatchObject({ toolName: 'webfetch', arguments: { url: 'http://x' } });
  });

  it('tool.execute.after: a shell result with its exit code; chat.message and session.idle reach their seams', () => {
    const after = seamOf(openCodeBridge.toSeam({ ...base, hook_event_name: 'tool.execute.after', tool_name: 'bash', tool_call_id: 'c1', input: { command: 'x' }, output: 'boom', exit_code: 2 }));
    expect((after.payload as { result: unknown }).result).toEqual({ content: 'boom\nexit code: 2', isError: true });
    expect(seamOf(openCodeBridge.toSeam({ ...base, hook_event_name: 'chat.message', text: 'hi' })).seam).toBe('agent/prompt-submit');
    expect(seamOf(openCodeBridge.toSeam({ ...base, hook_event_name: 'session.idle' })).seam).toBe('agent/turn-continuation');
  });
});

describe('Kilo CLI bridge: OpenCode\'s events, its own tools', () => {
  const base = { session_id: 'ses_1', cwd: CWD };
  const call = (tool_name: string, input: Record<string, unknown>) =>
    seamOf(kiloBridge.toSeam({ ...base, hook_event_name: 'tool.execute.before', tool_name, tool_call_id: 'c1', input })).payload as Record<string, unknown>;
  it("OpenCode's tools map as OpenCode's do; Kilo's own are passed under their names, unflagged", () => {
    expect(call('bash', { command: 'ls', description: 'list' })).toMatchObject({ toolName: 'bash', arguments: { command: 'ls' } });
    expect(call('edit', { filePath: `${CWD}/.env`, oldString: 'a', newString: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: '.env', content: 'b' } });
    expect(call('kilo_local_recall', { mode: 'search', query: 'x' })).toEqual({ toolCallId: 'c1', toolName: 'kilo_local_recall', arguments: { mode: 'search', query: 'x' } });
    expect(call('deploy', { to: 'prod' })).toMatchObject({ toolName: 'deploy', arguments: { _hookbox: { unmappedTool: true } } });
  });

  it('every tool the table passes by name reaches hooks under it, its arguments as sent and unflagged', () => {
    for (const row of KILO_TOOLS.filter((candidate) => candidate.how.startsWith('passed'))) {
      expect(fromKiloTool(row.tool, { x: 1 }, CWD), row.tool).toEqual({ toolName: row.tool, arguments: { x: 1 } });
    }
  });

  it('background_process: start and monitor are the shell command they run; the actions on a started process are passed; a start without a command is flagged', () => {
    expect(call('background_process', { action: 'start', command: 'npm run dev', workdir: '/srv', persistent: true })).toEqual({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'npm run dev' } });
    expect(call('background_process', { action: 'monitor', command: 'npm test' })).toMatchObject({ toolName: 'bash', arguments: { command: 'npm test' } });
    expect(call('background_process', { action: 'logs', id: 'p1' })).toEqual({ toolCallId: 'c1', toolName: 'background_process', arguments: { action: 'logs', id: 'p1' } });
    expect(call('background_process', { action: 'start', command: ['sh', '-c', 'x'] })).toMatchObject({ toolName: 'background_process', arguments: { _hookbox: { unmappedTool: true } } });
    // An action that runs nothing but carries a command anyway: not taken for harmless.
    expect(call('background_process', { action: 'stop', id: 'p1', command: 'rm -rf /' })).toMatchObject({ arguments: { _hookbox: { unmappedTool: true } } });
  });

  it('the events and answers are OpenCode\'s', () => {
    expect(seamOf(kiloBridge.toSeam({ ...base, hook_event_name: 'chat.message', text: 'hi' })).seam).toBe('agent/prompt-submit');
    const after = seamOf(kiloBridge.toSeam({ ...base, hook_event_name: 'tool.execute.after', tool_name: 'bash', tool_call_id: 'c1', input: { command: 'x' }, output: 'boom', exit_code: 2 }));
    expect((after.payload as { result: unknown }).result).toEqual({ content: 'boom\nexit code: 2', isError: true });
    expect(kiloBridge.events.map((row) => row.event)).toEqual(openCodeBridge.events.map((row) => row.event));
  });
});

describe('the plugin answer vocabulary (every plugin bridge)', () => {
  const pre = seamOf(piBridge.toSeam({ session_id: 's', cwd: CWD, hook_event_name: 'tool_call', tool_name: 'bash', tool_call_id: 'c', input: { command: 'x' } }));
  const post = seamOf(piBridge.toSeam({ session_id: 's', cwd: CWD, hook_event_name: 'tool_result', tool_name: 'bash', tool_call_id: 'c', input: {}, content: [], is_error: false }));
  const prompt = seamOf(piBridge.toSeam({ session_id: 's', cwd: CWD, hook_event_name: 'input', text: 'hi' }));
  const json = (answer: { stdout: string }) => JSON.parse(answer.stdout) as unknown;
  it('deny, ask (as deny), replaced content, block, rewrite, continue — and allow is no answer at all', () => {
    for (const bridge of [piBridge, openCodeBridge, kiloBridge]) {
      expect(bridge.answer(pre, { action: 'allow' }).stdout).toBe('');
      expect(json(bridge.answer(pre, { action: 'deny', reason: 'no' }))).toEqual({ deny: 'no' });
      expect(json(bridge.answer(pre, { action: 'ask', reason: 'sure?' }))).toEqual({ deny: expect.stringMatching(/cannot request, so the call is denied: sure\?$/) });
      expect(json(bridge.answer(post, { action: 'accept', content: 'redacted' }))).toEqual({ content: 'redacted' });
      expect(json(bridge.answer(post, { action: 'block', reason: 'secret' }))).toEqual({ content: 'secret', isError: true });
      expect(json(bridge.answer(prompt, { action: 'block', reason: 'key' }))).toEqual({ block: 'key' });
      expect(json(bridge.answer(prompt, { action: 'allow', content: 'hello' }))).toEqual({ text: 'hello' });
    }
  });

  it('hostile bytes in a reason never reach the agent, from the bridge or from the plugin client', () => {
    const evil = 'x \u001b]0;t\u0007 \u202e y';
    expect(piBridge.answer(pre, { action: 'deny', reason: evil }).stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(printable(evil)).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(printable('a\nb', true)).toBe('a\nb');
    // The classes host/text escapes, not a hand list: a tag character, a soft hyphen, a line separator, a lone surrogate.
    expect(printable('a\u{e0041}b\u00adc\u2028d\ud800e')).toBe('a\\u{e0041}b\\u{ad}c\\u{2028}d\\u{d800}e');
    expect(printable('a\nb')).toBe('a\\u{a}b');
  });
});

describe('the plugin file setup writes', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'hookbox-plugin-file-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['pi', '.pi/extensions/hookbox.ts', 'export default hookboxPiExtension('],
    ['opencode', '.opencode/plugin/hookbox.js', 'export const HookboxPlugin = hookboxOpenCodePlugin('],
    ['kilo', '.kilo/plugins/hookbox.js', 'export const HookboxPlugin = hookboxKiloPlugin('],
  ])('%s: written, unchanged on a second run, taken out exactly by --remove; a file hookbox did not write is refused', (agent, relative, exported) => {
    const dir = join(root, agent);
    mkdirSync(dir, { recursive: true });
    const config = writeExampleConfig(dir, [{ name: 'guard-bash' }]);
    const out: string[] = [];
    setupCommand(agent, { project: dir, config }, (text) => out.push(text));
    const file = join(dir, relative);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(exported);
    expect(text).toContain('"socket":".hookbox/run/serve.sock","config":"hookbox.config.json","deadlineMs":');
    expect(parsePluginFile({ label: agent, name: agent, detect: { folders: [], commands: [] }, file: () => file, factory: exported.split(' ').at(-1)!.replace('(', ''), exportAs: exported.split(' ').slice(0, -1).join(' '), tradeOff: '' }, text)).toMatchObject({
      hookbox: { options: { socket: '.hookbox/run/serve.sock' } },
    });
    expect(out.join('')).toMatch(/added plugin/);
    out.length = 0;
    setupCommand(agent, { project: dir, config }, (line) => out.push(line));
    expect(out.join('')).toMatch(/settings .*: unchanged/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    setupCommand(agent, { project: dir, remove: true }, (line) => out.push(line));
    expect(existsSync(file)).toBe(false);
    expect(() => setupCommand(agent, { project: dir, config, transport: 'http' }, () => {})).toThrow(/no http hooks/);
    // A file of the user's own at that path: setup neither overwrites nor removes it.
    writeFileSync(file, 'export default () => {};\n');
    expect(() => setupCommand(agent, { project: dir, config }, () => {})).toThrow(/not written by hookbox setup/);
    expect(() => setupCommand(agent, { project: dir, remove: true }, () => {})).toThrow(/not written by hookbox setup/);
    expect(readFileSync(file, 'utf8')).toBe('export default () => {};\n');
  });

  it('--user: the plugin file goes to pi\'s agent folder and OpenCode\'s and Kilo\'s config folders, naming the module and the config by absolute path', () => {
    const saved = { PI_CODING_AGENT_DIR: process.env.PI_CODING_AGENT_DIR, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
    process.env.PI_CODING_AGENT_DIR = join(root, 'user', 'pi-agent');
    process.env.XDG_CONFIG_HOME = join(root, 'user', 'xdg');
    try {
      const config = writeExampleConfig(root, [{ name: 'guard-bash' }], 'user.config.json');
      for (const [agent, file] of [
        ['pi', join(root, 'user', 'pi-agent', 'extensions', 'hookbox.ts')],
        ['opencode', join(root, 'user', 'xdg', 'opencode', 'plugin', 'hookbox.js')],
        ['kilo', join(root, 'user', 'xdg', 'kilo', 'plugins', 'hookbox.js')],
      ] as const) {
        setupCommand(agent, { user: true, config }, () => {});
        const text = readFileSync(file, 'utf8');
        expect(text).toContain(`"config":${JSON.stringify(config)}`);
        expect(text).toMatch(new RegExp(`from "/[^"]+/host/agents/${agent === 'pi' ? 'pi/extension' : `${agent}/plugin`}\\.mjs"`));
        setupCommand(agent, { user: true, remove: true }, () => {});
        expect(existsSync(file)).toBe(false);
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('the other agents refuse the plugin transport', () => {
    const dir = join(root, 'cc');
    mkdirSync(dir, { recursive: true });
    const config = writeExampleConfig(dir, [{ name: 'guard-bash' }]);
    expect(() => setupCommand('claude-code', { project: dir, config, transport: 'plugin' }, () => {})).toThrow(/no plugin hooks/);
  });
});
