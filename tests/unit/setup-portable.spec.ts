/**
 * What `hookbox setup` writes, for every agent: deadlines from the hooks'
 * effective limits (a manifest's request counts where the operator set
 * none), commands that name no machine path when hookbox is installed in
 * the project, a socket per project, and `.hookbox/` kept out of git.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_MARGIN_MS } from '../../host/agents/index.ts';
import { handlerPositions } from '../../host/agents/hook-groups.ts';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { shellWords } from '../../host/cli/doctor.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { NATIVE_MISSING } from '../helpers/command-hook.ts';
import { exampleManifest } from '../helpers/examples.ts';

const SETTINGS: Record<string, string> = { 'claude-code': '.claude/settings.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json' };

/** hookbox's handlers in an agent's written settings. */
function handlers(project: string, agent: string): Record<string, unknown>[] {
  const settings = JSON.parse(readFileSync(join(project, SETTINGS[agent]!), 'utf8')) as Record<string, unknown>;
  return handlerPositions(settings)
    .map((position) => position.handler)
    .filter((handler) => /hookbox-hook\.(cjs|sh)|native\/[\w-]+\/hookbox-hook/.test(String(handler.command)));
}

/** The agent's handler timeout in ms (Gemini writes ms, the others seconds). */
const timeoutMs = (agent: string, handler: Record<string, unknown>) => (agent === 'gemini' ? Number(handler.timeout) : Number(handler.timeout) * 1000);

describe('hookbox setup: what it writes for each agent', () => {
  let root: string;
  let saved: Record<string, string | undefined>;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hookbox-portable-'));
    saved = { CODEX_HOME: process.env.CODEX_HOME, GEMINI_CLI_HOME: process.env.GEMINI_CLI_HOME };
    // Codex's trust and Gemini's folder trust are the test's own.
    process.env.CODEX_HOME = join(root, 'codex-home');
    process.env.GEMINI_CLI_HOME = join(root, 'gemini-home');
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  function project(installed: boolean): { dir: string; config: string } {
    const dir = join(root, 'proj');
    mkdirSync(dir, { recursive: true });
    if (installed) {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', 'hookbox'));
    }
    // A hook whose manifest asks for 45 s and an operator config that sets no timeout.
    const hookDir = join(dir, 'hooks', 'slow');
    mkdirSync(hookDir, { recursive: true });
    const manifest = JSON.parse(readFileSync(exampleManifest('guard-bash'), 'utf8')) as { limits: Record<string, number> };
    manifest.limits.timeoutMs = 45_000;
    writeFileSync(join(hookDir, 'hook.json'), JSON.stringify(manifest));
    copyFileSync(join(dirname(exampleManifest('guard-bash')), 'hook.wasm'), join(hookDir, 'hook.wasm'));
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'slow', manifest: 'hooks/slow/hook.json' }] }));
    return { dir, config };
  }

  for (const agent of ['claude-code', 'codex', 'gemini']) {
    it(`${agent}: a manifest asking for 45 s makes the client's deadline and the agent's timeout longer, the agent's above the client's`, () => {
      const { dir, config } = project(true);
      setupCommand(agent, { project: dir, config, transport: 'command' }, () => {});
      expect(handlers(dir, agent).length).toBeGreaterThan(0);
      for (const handler of handlers(dir, agent)) {
        const words = shellWords(String(handler.command));
        const deadline = Number(words[words.indexOf('--deadline-ms') + 1]);
        expect(deadline).toBeGreaterThan(45_000);
        expect(timeoutMs(agent, handler)).toBeGreaterThanOrEqual(deadline + AGENT_MARGIN_MS);
      }
    });

    it(`${agent}: installed in the project, the command names no machine path; relative socket per project and config`, () => {
      const { dir, config } = project(true);
      const out: string[] = [];
      setupCommand(agent, { project: dir, config, transport: 'command' }, (text) => out.push(text));
      const text = readFileSync(join(dir, SETTINGS[agent]!), 'utf8');
      for (const machinePath of [process.execPath, PACKAGE_ROOT, dir, homedir(), root]) expect(text, machinePath).not.toContain(machinePath);
      for (const handler of handlers(dir, agent)) {
        const words = shellWords(String(handler.command));
        // The native client by default where npm run build made it, else the sh client (this platform has a POSIX sh).
        const client = NATIVE_MISSING === undefined ? `dist/native/${process.platform}-${process.arch}/hookbox-hook` : 'host/cli/hookbox-hook.sh';
        const run = NATIVE_MISSING === undefined ? '' : 'sh ';
        if (agent !== 'codex') expect(words[0]).toBe(NATIVE_MISSING === undefined ? `"$${agent === 'gemini' ? 'GEMINI' : 'CLAUDE'}_PROJECT_DIR/node_modules/hookbox/${client}"` : 'sh');
        if (agent === 'codex') {
          expect(words[0]).toBe('sh');
          // No project variable: a prologue walks up from the working folder to the config, names the project and runs the client there.
          expect(words[1]).toBe('-c');
          expect(words[2]).toMatch(/until \[ -e "\$r\/hookbox\.config\.json" \] && \[ -e "\$r\/\.codex\/hooks\.json" \].*export HOOKBOX_PROJECT_DIR="\$r"; cd "\$r" \|\| exit 2; exec /);
          expect(words[2]!.endsWith(`; exec ${run}node_modules/hookbox/${client} "$@"`)).toBe(true);
        } else if (NATIVE_MISSING !== undefined) expect(words[1]).toMatch(/^"\$(CLAUDE|GEMINI)_PROJECT_DIR\/node_modules\/hookbox\/host\/cli\/hookbox-hook\.sh"$/);
        expect(words[words.indexOf('--socket') + 1]).toBe('.hookbox/run/serve.sock');
        expect(words[words.indexOf('--config') + 1]).toBe('hookbox.config.json');
      }
      expect(out.join('')).not.toContain('is not installed');
      expect(out.join('')).toMatch(/added to .+\.gitignore: \.hookbox\//);
    });
  }

  it('from a development checkout (no node_modules/hookbox): the absolute client, and setup says why it is not portable', () => {
    const { dir, config } = project(false);
    const out: string[] = [];
    setupCommand('claude-code', { project: dir, config, transport: 'command', client: 'sh' }, (text) => out.push(text));
    const words = shellWords(String(handlers(dir, 'claude-code')[0]!.command));
    expect(words[0]).toBe('sh');
    expect(words[1]).toBe(join(PACKAGE_ROOT, 'host', 'cli', 'hookbox-hook.sh'));
    expect(out.join('')).toContain(`hookbox is not installed in ${join(dir, 'node_modules')}`);
  });

  it('.gitignore: added once, kept as the user had it, left in place by --remove', () => {
    const { dir, config } = project(true);
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n/dist');
    setupCommand('claude-code', { project: dir, config, transport: 'command' }, () => {});
    setupCommand('gemini', { project: dir, config, transport: 'command' }, () => {});
    const text = readFileSync(join(dir, '.gitignore'), 'utf8');
    expect(text.startsWith('node_modules/\n/dist\n')).toBe(true);
    expect(text.split('\n').filter((line) => line === '.hookbox/')).toHaveLength(1);
    setupCommand('claude-code', { project: dir, transport: 'command', remove: true }, () => {});
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(text);
  });
});
