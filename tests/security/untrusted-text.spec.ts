/**
 * Hook text must never reach the terminal raw. Real plugins
 * (tests/security/hostile-text.ts) answer reasons and contexts, log lines and
 * fail with error text made of escape sequences; the real CLI runs them as a
 * child process, and its whole output (stdout and stderr) must hold no
 * control character a terminal would act on — the attacks show escaped.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileWatSource } from '../helpers/wat.ts';
import { ALL_ATTACKS, ATTACKS, terminalControls, writeHostileTextWasm } from './hostile-text.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

/** Colours off (NO_COLOR) unless `colours` asks picocolors to force them on. */
function hookbox(args: string[], options: { colours?: boolean; cwd?: string } = {}) {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  if (options.colours === true) env.FORCE_COLOR = '1';
  else env.NO_COLOR = '1';
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input: '', env, timeout: 60_000, cwd: options.cwd ?? dir });
  return { ...result, output: `${result.stdout}${result.stderr}` };
}

/** The marker of each attack, as it must appear: escaped, visible. */
const SHOWN_ESCAPED = ['\\x1b]52;c;', '\\x1b]0;HBXMARK title\\x07', '\\x1b[2K\\r', '\\x1b[8m', '\\x9b2K\\x9d0;HBXMARK\\x9c', '\\u{202e}HBXMARK'];

let dir: string;
let deny: string;
let failing: string;
let config: string;
let blockConfig: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookbox-untrusted-text-'));
  deny = await writeHostileTextWasm(dir, 'hostile-deny', {
    pre_tool: { log: ALL_ATTACKS, decision: { action: 'deny', reason: ALL_ATTACKS } },
    prompt_submit: { log: ALL_ATTACKS, decision: { action: 'allow', additionalContext: ALL_ATTACKS } },
  });
  failing = await writeHostileTextWasm(dir, 'hostile-error', { post_tool: { error: ALL_ATTACKS }, pre_tool: { error: ALL_ATTACKS } });
  const blocker = await writeHostileTextWasm(dir, 'hostile-block', { prompt_submit: { decision: { action: 'block', reason: ALL_ATTACKS } } });
  await writeFile(join(dir, 'pre.json'), JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }));
  await writeFile(
    join(dir, 'script.json'),
    JSON.stringify({
      steps: [
        { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'ls' } }, { id: 'c2', name: 'list_dir', arguments: { path: '.' } }] },
        { text: 'done' },
      ],
    }),
  );
  config = join(dir, 'hookbox.config.json');
  await writeFile(
    config,
    JSON.stringify({
      hooks: [
        { name: 'hostile-deny', wasm: deny, tools: ['bash'] },
        { name: 'hostile-error', wasm: failing, seams: ['tools/post-execute'], tools: ['list_dir'] },
      ],
    }),
  );
  blockConfig = join(dir, 'block.config.json');
  await writeFile(blockConfig, JSON.stringify({ hooks: [{ name: 'hostile-block', wasm: blocker }] }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('hookbox call: hook text on stdout and stderr is escaped', () => {
  it.each([
    ['a deny reason and a log line (human output)', 'tools/pre-execute', () => deny, false, false],
    // `call` prints no colours of its own: FORCE_COLOR must not change that any ESC is escaped.
    ['a deny reason and a log line, FORCE_COLOR set', 'tools/pre-execute', () => deny, false, true],
    ['error_set text in the fault (human output)', 'tools/post-execute', () => failing, false, false],
    ['error_set text in the fault (--json)', 'tools/pre-execute', () => failing, true, false],
  ])('%s', async (_name, seam, hook, json, colours) => {
    // (colours: FORCE_COLOR=1 in the environment)
    const payload = join(dir, `${seam.replace('/', '-')}.json`);
    await writeFile(payload, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, ...(seam === 'tools/post-execute' && { result: { content: 'x', isError: false } }) }));
    const result = hookbox(['call', hook(), '--seam', seam, '--payload', payload, ...(json ? ['--json'] : [])], { colours });
    // A hook that fails (error_set) makes `call` exit 1; one that decides, 0.
    expect(result.status).toBe(hook() === failing ? 1 : 0);
    expect(result.output).toContain('HBXMARK');
    expect(terminalControls(result.output)).toEqual([]);
    if (!json) for (const shown of SHOWN_ESCAPED) expect(result.output).toContain(shown);
  });

  it('--json: the log line on stderr is escaped, stdout stays lossless (the decoded reason is the hook\'s raw text)', () => {
    const result = hookbox(['call', deny, '--seam', 'tools/pre-execute', '--payload', join(dir, 'pre.json'), '--json']);
    expect(terminalControls(result.output)).toEqual([]);
    expect(result.stderr).toContain('\\x1b]0;HBXMARK title\\x07');
    expect(JSON.parse(result.stdout).decision).toEqual({ action: 'deny', reason: ALL_ATTACKS });
  });
});

describe('hookbox run: the transcript shows hook text escaped', () => {
  let run: ReturnType<typeof hookbox>;
  let log: string;
  beforeAll(() => {
    log = join(dir, 'run.jsonl');
    run = hookbox(['run', '--script', join(dir, 'script.json'), '--config', config, '--log', log, '--cwd', dir, 'hi']);
  });

  it('reasons, contexts, log lines and plugin error text', () => {
    expect(run.status, `hookbox run exited ${run.status}:\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('HBXMARK');
    expect(terminalControls(run.output)).toEqual([]);
    for (const shown of SHOWN_ESCAPED) expect(run.stdout).toContain(shown);
  });

  it('colours on: every ESC is the CLI\'s own SGR colour, the attacks show escaped', () => {
    const coloured = hookbox(['run', '--script', join(dir, 'script.json'), '--config', config, '--log', join(dir, 'coloured.jsonl'), '--cwd', dir, 'hi'], { colours: true });
    expect(coloured.status).toBe(0);
    expect(coloured.output).toMatch(/\x1b\[[0-9;]*m/);
    expect(terminalControls(coloured.output, true)).toEqual([]);
    for (const shown of SHOWN_ESCAPED) expect(coloured.stdout).toContain(shown);
  });

  it('a block reason', () => {
    const result = hookbox(['run', '--script', join(dir, 'script.json'), '--config', blockConfig, '--log', join(dir, 'block.jsonl'), '--cwd', dir, 'hi']);
    expect(result.stdout).toContain('prompt blocked');
    expect(terminalControls(result.output)).toEqual([]);
    expect(result.stdout).toContain('\\x1b]0;HBXMARK title\\x07');
  });

  it('the session log keeps the raw text (JSON-escaped) for audit', () => {
    const events = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; message?: string; applied?: { reason?: string } });
    expect(events.some((event) => event.type === 'hook/log' && event.message === ALL_ATTACKS)).toBe(true);
    expect(events.some((event) => event.type === 'hook/invoke' && event.applied?.reason === ALL_ATTACKS)).toBe(true);
  });

  it('replay prints recorded hook text escaped, in human and --json output', async () => {
    // Against a config without the hostile hooks, every recorded decision changed and is shown.
    const empty = join(dir, 'empty.config.json');
    await writeFile(empty, '{"hooks":[]}');
    for (const json of [false, true]) {
      const result = hookbox(['replay', log, '--config', empty, ...(json ? ['--json'] : [])]);
      expect(result.output).toContain('HBXMARK');
      expect(terminalControls(result.output)).toEqual([]);
    }
  });
});

describe('shell hooks and imported settings: their text is escaped too', () => {
  it('a Claude Code shell hook\'s stderr (exit 2) shown as the deny reason', async () => {
    const script = join(dir, 'hostile-stderr.sh');
    // printf interprets the octal escapes: the hook writes real ESC, BEL, CR and C1 bytes.
    await writeFile(script, `#!/bin/sh\ncat > /dev/null\nprintf '\\033]0;HBXMARK title\\007\\033[2K\\r\\302\\233HBXMARK' >&2\nexit 2\n`, { mode: 0o755 });
    const shellConfig = join(dir, 'shell.config.json');
    await writeFile(shellConfig, JSON.stringify({ hooks: [{ name: 'shell-guard', command: script, protocol: 'claude-code', unsandboxed: true, seams: ['tools/pre-execute'] }] }));
    const result = hookbox(['run', '--script', join(dir, 'script.json'), '--config', shellConfig, '--log', join(dir, 'shell.jsonl'), '--cwd', dir, 'hi']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('\\x1b]0;HBXMARK title\\x07\\x1b[2K\\r\\x9bHBXMARK');
    expect(terminalControls(result.output)).toEqual([]);
  });

  it('hookbox import-claude: commands and matchers from the settings file', async () => {
    const settings = join(dir, 'claude-settings.json');
    await writeFile(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `./guard.sh ${ATTACKS.title}${ATTACKS.c1}` }] }] } }));
    const result = hookbox(['import-claude', settings]);
    expect(result.status).toBe(0);
    expect(result.output).toContain('HBXMARK');
    expect(terminalControls(result.output)).toEqual([]);
    expect(result.stderr).toContain('\\x1b]0;HBXMARK title\\x07');
  });
});

describe('hookbox inspect: names read from the module are escaped', () => {
  it('an export name made of escape sequences', async () => {
    const wasm = join(dir, 'named.wasm');
    const name = ATTACKS.title.replace(/\x1b/g, '\\1b').replace(/\x07/g, '\\07');
    await writeFile(wasm, await compileWatSource(`(module (memory (export "memory") 1 1) (func (export "${name}")) (func (export "pre_tool") (result i32) (i32.const 0)))`));
    for (const json of [false, true]) {
      const result = hookbox(['inspect', wasm, ...(json ? ['--json'] : [])]);
      expect(result.status).toBe(0);
      expect(result.output).toContain('HBXMARK');
      expect(terminalControls(result.output)).toEqual([]);
    }
  });
});
