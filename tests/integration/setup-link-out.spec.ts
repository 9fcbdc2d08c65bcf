/**
 * `hookbox setup` through the real bin in a temp project whose agent folder
 * is a committed symlink to a folder outside it (`.github -> ~/.copilot`):
 * setup exits non-zero naming the link, and writes nothing — not through the
 * link, not in the project. With `--user`, the same for a link out of the
 * home folder. A link that stays inside the project is followed as before.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { hookbox } from '../helpers/real-agents.ts';

const BIN_TIMEOUT = 120_000;

/** Each agent and the folder of the project its setup writes in. */
const FOLDERS = [
  ['claude-code', '.claude'],
  ['copilot', '.github'],
  ['opencode', '.opencode'],
  ['pi', '.pi'],
  ['kilo', '.kilo'],
  ['codex', '.codex'],
  ['gemini', '.gemini'],
  ['qwen', '.qwen'],
  ['factory', '.factory'],
] as const;

/** Every file under a folder, as paths relative to it (empty: nothing there). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory() && !entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

function projectWithLink(agentFolder: string) {
  const ws = agentWorkspace('hookbox-setup-link-');
  writeFileSync(join(ws.project, 'hookbox.config.json'), '{"hooks":[]}\n');
  const outside = join(ws.root, 'outside');
  mkdirSync(outside);
  symlinkSync(outside, join(ws.project, agentFolder));
  return { ...ws, outside };
}

describe('setup refuses to write through a committed link out of the project (real bin)', () => {
  it.each(FOLDERS)('%s: its %s linked out of the project → non-zero, the link named, nothing written', { timeout: BIN_TIMEOUT }, async (agent, folder) => {
    const p = projectWithLink(folder);
    const result = await hookbox(['setup', agent, '--project', p.project], { HOME: p.home });
    expect(result.status, result.stdout).not.toBe(0);
    expect(result.stderr).toContain(`${join(p.project, folder)} -> ${p.outside}: a link that leads out of the project`);
    expect(filesUnder(p.outside)).toEqual([]);
    expect(filesUnder(p.project)).toEqual(['hookbox.config.json']);
    expect(filesUnder(p.home)).toEqual([]);
  });

  it('a link deeper down (.github/hooks → outside) is refused too; --remove writes nothing through it either', { timeout: BIN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-setup-link-deep-');
    writeFileSync(join(ws.project, 'hookbox.config.json'), '{"hooks":[]}\n');
    const outside = join(ws.root, 'copilot-hooks');
    mkdirSync(outside);
    const theirs = '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"sh /x/hookbox-hook.sh copilot preToolUse"}]}}\n';
    writeFileSync(join(outside, 'hookbox.json'), theirs);
    mkdirSync(join(ws.project, '.github'));
    symlinkSync(outside, join(ws.project, '.github', 'hooks'));
    for (const args of [[], ['--remove']]) {
      const result = await hookbox(['setup', 'copilot', '--project', ws.project, ...args], { HOME: ws.home });
      expect(result.status, result.stdout).not.toBe(0);
      expect(result.stderr).toContain(`${join(ws.project, '.github', 'hooks')} -> ${outside}: a link that leads out of the project`);
      expect(filesUnder(outside)).toEqual(['hookbox.json']);
    }
    expect(existsSync(join(ws.project, '.gitignore'))).toBe(false);
  });

  it('--user: ~/.copilot linked out of the home folder is refused the same way', { timeout: BIN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-setup-link-user-');
    writeFileSync(join(ws.project, 'hookbox.config.json'), '{"hooks":[]}\n');
    const outside = join(ws.root, 'elsewhere');
    mkdirSync(outside);
    symlinkSync(outside, join(ws.home, '.copilot'));
    const result = await hookbox(['setup', 'copilot', '--user', '--config', join(ws.project, 'hookbox.config.json')], { HOME: ws.home });
    expect(result.status, result.stdout).not.toBe(0);
    expect(result.stderr).toContain(`${join(ws.home, '.copilot')} -> ${outside}: a link that leads out of the home folder`);
    expect(filesUnder(outside)).toEqual([]);
  });

  it('a link that stays inside the project is followed: setup writes through it', { timeout: BIN_TIMEOUT }, async () => {
    const ws = agentWorkspace('hookbox-setup-link-inside-');
    writeFileSync(join(ws.project, 'hookbox.config.json'), '{"hooks":[]}\n');
    mkdirSync(join(ws.project, 'config', 'claude'), { recursive: true });
    symlinkSync(join(ws.project, 'config', 'claude'), join(ws.project, '.claude'));
    const result = await hookbox(['setup', 'claude-code', '--project', ws.project], { HOME: ws.home });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(ws.project, 'config', 'claude', 'settings.json'))).toBe(true);
  });
});
