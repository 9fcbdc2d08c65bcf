/**
 * `hookbox setup` and `hookbox doctor` with no agent named: the agents a
 * project uses are found by their folder in it, else their command on PATH;
 * setup sets each up, `--remove` takes hookbox out of every agent that has
 * its entries, and doctor checks what is set up or in use.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectAgents } from '../../host/agents/index.ts';
import { doctorCommand } from '../../host/cli/commands/doctor.ts';
import { setupDetected } from '../../host/cli/commands/setup.ts';
import { ConfigError } from '../../host/errors.ts';
import { exampleManifest } from '../helpers/examples.ts';

describe('setup and doctor with no agent named', () => {
  let root: string;
  let project: string;
  let bin: string;
  let saved: Record<string, string | undefined>;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hookbox-detect-'));
    project = join(root, 'proj');
    bin = join(root, 'bin');
    mkdirSync(project, { recursive: true });
    mkdirSync(bin);
    // No agent of this machine's PATH (npm test puts node_modules/.bin there, with every agent in it); trust stores are the test's.
    saved = { PATH: process.env.PATH, CODEX_HOME: process.env.CODEX_HOME, GEMINI_CLI_HOME: process.env.GEMINI_CLI_HOME };
    process.env.PATH = bin;
    process.env.CODEX_HOME = join(root, 'codex-home');
    process.env.GEMINI_CLI_HOME = join(root, 'gemini-home');
    writeFileSync(join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }));
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  function command(name: string, executable: boolean): void {
    writeFileSync(join(bin, name), '#!/bin/sh\n');
    chmodSync(join(bin, name), executable ? 0o755 : 0o644);
  }

  it('detects an agent by its folder in the project, else by an executable command on PATH', () => {
    mkdirSync(join(project, '.claude'));
    mkdirSync(join(project, '.gemini'));
    command('codex', true);
    command('gemini', true); // also on PATH: the folder is the reason given
    expect(detectAgents({ kind: 'project', dir: project }, bin)).toEqual([
      { name: 'claude-code', why: `.claude/ in ${project}` },
      { name: 'codex', why: `codex on PATH (${join(bin, 'codex')})` },
      { name: 'gemini', why: `.gemini/ in ${project}` },
    ]);
  });

  it('detects Copilot CLI as itself (its own format), by .github/hooks or the copilot command — not as Claude Code', () => {
    command('copilot', true);
    expect(detectAgents({ kind: 'project', dir: project }, bin)).toEqual([{ name: 'copilot', why: `copilot on PATH (${join(bin, 'copilot')})` }]);
    mkdirSync(join(project, '.github', 'hooks'), { recursive: true });
    expect(detectAgents({ kind: 'project', dir: project }, bin)).toEqual([{ name: 'copilot', why: `.github/hooks/ in ${project}` }]);
  });

  it("Kilo CLI by its .kilo folder or its kilo command, apart from OpenCode's; setup writes Kilo's plugin file there", () => {
    mkdirSync(join(project, '.kilo'));
    command('opencode', true);
    expect(detectAgents({ kind: 'project', dir: project }, bin)).toEqual([
      { name: 'opencode', why: `opencode on PATH (${join(bin, 'opencode')})` },
      { name: 'kilo', why: `.kilo/ in ${project}` },
    ]);
    expect(setupDetected({ project }, () => {})).toEqual(['opencode', 'kilo']);
    expect(readFileSync(join(project, '.kilo', 'plugins', 'hookbox.js'), 'utf8')).toContain('hookboxKiloPlugin(');
    expect(readFileSync(join(project, '.opencode', 'plugin', 'hookbox.js'), 'utf8')).toContain('hookboxOpenCodePlugin(');
    command('kilo', true);
    expect(detectAgents({ kind: 'project', dir: root }, bin).map((agent) => agent.name)).toEqual(['opencode', 'kilo']);
  });

  it('does not count a file that is not executable, a relative PATH entry, or a file where the folder should be', () => {
    command('claude', false);
    writeFileSync(join(project, '.gemini'), 'not a folder');
    mkdirSync(join(project, 'rel'));
    writeFileSync(join(project, 'rel', 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    expect(detectAgents({ kind: 'project', dir: project }, `${bin}:rel`)).toEqual([]);
  });

  it('setup sets up each detected agent and only those, saying why each was chosen', () => {
    mkdirSync(join(project, '.claude'));
    command('gemini', true);
    const out: string[] = [];
    expect(setupDetected({ project, transport: 'command' }, (text) => out.push(text))).toEqual(['claude-code', 'gemini']);
    const text = out.join('');
    expect(text).toContain(`Claude Code (claude-code): .claude/ in ${project}`);
    expect(text).toContain(`(gemini): gemini on PATH (${join(bin, 'gemini')})`);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toContain('hookbox-hook');
    expect(readFileSync(join(project, '.gemini', 'settings.json'), 'utf8')).toContain('hookbox-hook');
    expect(existsSync(join(project, '.codex'))).toBe(false);
  });

  it('setup with nothing detected refuses and names what it looked for and the agents there are', () => {
    expect(() => setupDetected({ project, transport: 'command' }, () => {})).toThrow(ConfigError);
    expect(() => setupDetected({ project, transport: 'command' }, () => {})).toThrow(
      /no agent detected for .*proj: looked for the folders \.claude\/, \.codex\/, \.gemini\/, \.qwen\/, \.factory\/, \.pi\/, \.opencode\/, \.kilo\/, \.github\/hooks\/, \.clinerules\/, \.cline\/ and for the commands claude, codex, gemini, qwen, droid, pi, opencode, kilo, copilot, cline on PATH; name the agent: hookbox setup <agent> \(one of: claude-code, codex, gemini, qwen, factory, pi, opencode, kilo, copilot, cline\)/,
    );
  });

  it('one agent failing does not stop the others; the failure is raised at the end, naming the agent', () => {
    mkdirSync(join(project, '.claude'));
    mkdirSync(join(project, '.gemini'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ not json');
    const out: string[] = [];
    expect(() => setupDetected({ project, transport: 'command' }, (text) => out.push(text))).toThrow(/setup failed for 1 of 2 agents — claude-code: .*settings\.json: not valid JSON/);
    expect(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')).toBe('{ not json');
    expect(readFileSync(join(project, '.gemini', 'settings.json'), 'utf8')).toContain('hookbox-hook');
    expect(out.join('')).toContain('not set up:');
  });

  it('--remove takes hookbox out of every agent that has its entries, whether or not it is still detected, and keeps the user\'s own hooks', () => {
    mkdirSync(join(project, '.claude'));
    mkdirSync(join(project, '.gemini'));
    setupDetected({ project, transport: 'command' }, () => {});
    const settings = join(project, '.claude', 'settings.json');
    const written = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, unknown[]> };
    written.hooks.PreToolUse!.push({ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-own-check' }] });
    writeFileSync(settings, JSON.stringify(written));
    // Gemini's folder is gone from detection's view (PATH has nothing either), its settings stay.
    const out: string[] = [];
    expect(setupDetected({ project, transport: 'command', remove: true }, (text) => out.push(text))).toEqual(['claude-code', 'gemini']);
    expect(readFileSync(settings, 'utf8')).not.toContain('hookbox-hook');
    expect(readFileSync(settings, 'utf8')).toContain('my-own-check');
    expect(readFileSync(join(project, '.gemini', 'settings.json'), 'utf8')).not.toContain('hookbox-hook');
    const again: string[] = [];
    expect(setupDetected({ project, transport: 'command', remove: true }, (text) => again.push(text))).toEqual([]);
    expect(again.join('')).toContain("no agent's settings for");
  });

  it('doctor with no agent and nothing set up or detected fails and says how to set one up', async () => {
    const out: string[] = [];
    expect(await doctorCommand(undefined, { project }, (text) => out.push(text))).toBe(false);
    expect(out.join('')).toMatch(/no agent to check for .*proj: .*\n {2}fix: hookbox setup <agent>/);
  });

  it('doctor with no agent checks an agent in use that runs no hookbox hooks, and only that one', async () => {
    command('codex', true);
    const out: string[] = [];
    expect(await doctorCommand(undefined, { project }, (text) => out.push(text))).toBe(false);
    const text = out.join('');
    expect(text).toMatch(/^codex: NOT OK/);
    expect(text).toContain('hookbox setup codex');
    expect(text).not.toMatch(/^(claude-code|gemini):/m);
  });
});
