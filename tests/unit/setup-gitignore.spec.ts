/**
 * The `.gitignore` lines `hookbox setup` adds (session logs, the socket and
 * its key, a settings file holding a token): added unless the file already
 * leaves the entry ignored — judged line by line as git does, never by
 * substring — and after every edit real `git check-ignore` agrees that each
 * entry is ignored. Near misses (a longer name, a comment, a negation after
 * the line, a leading space) get the line added; what git already ignores
 * gets nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { ensureGitignored } from '../../host/cli/setup-paths.ts';
import { skipUnless } from '../helpers/skips.ts';

const ENTRIES = ['.hookbox/', '.claude/settings.local.json'];
const noGit = spawnSync('git', ['--version']).status === 0 ? undefined : 'no git on PATH to check the lines against';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'hookbox-gitignore-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A git repository with `.gitignore` holding `text`. */
function repo(text: string | undefined): string {
  const dir = mkdtempSync(join(root, 'r-'));
  spawnSync('git', ['init', '-q', dir]);
  if (text !== undefined) writeFileSync(join(dir, '.gitignore'), text);
  return dir;
}

/** Whether real git ignores `entry` in `dir` (a folder entry checked by a file inside it). */
function gitIgnores(dir: string, entry: string): boolean {
  const probe = entry.endsWith('/') ? `${entry}sessions/x.jsonl` : entry;
  mkdirSync(join(dir, probe, '..'), { recursive: true });
  writeFileSync(join(dir, probe), '');
  return spawnSync('git', ['check-ignore', '-q', '--no-index', probe], { cwd: dir }).status === 0;
}

describe('setup’s .gitignore edits', () => {
  // [case, .gitignore before, the entries setup must add]
  const CASES: readonly [string, string | undefined, readonly string[]][] = [
    ['no .gitignore', undefined, ENTRIES],
    ['an empty one', '', ENTRIES],
    ['both lines already there', '.hookbox/\n.claude/settings.local.json\n', []],
    ['anchored, and the folder without its slash', '/.hookbox\n/.claude/settings.local.json\n', []],
    ['CRLF lines and trailing spaces (git drops them)', '.hookbox/  \r\n.claude/settings.local.json \r\n', []],
    ['a near miss: a backup of the settings file', '.hookbox/\n.claude/settings.local.json.bak\n', ['.claude/settings.local.json']],
    ['a near miss: a longer folder name', '.hookbox-old/\n.claude/settings.local.json\n', ['.hookbox/']],
    ['comments naming both', '# .hookbox/\n#.claude/settings.local.json\n', ENTRIES],
    ['a negation after the line un-ignores it', '.hookbox/\n!.hookbox/\n.claude/settings.local.json\n!/.claude/settings.local.json\n', ENTRIES],
    ['a negation before the line does not', '!.hookbox/\n.hookbox/\n.claude/settings.local.json\n', []],
    ['a leading space is part of the pattern', ' .hookbox/\n .claude/settings.local.json\n', ENTRIES],
    ['an escaped trailing space names another file', '.hookbox/\n.claude/settings.local.json\\ \n', ['.claude/settings.local.json']],
    ['no newline at the end', '.hookbox/', ['.claude/settings.local.json']],
  ];
  for (const [name, before, added] of CASES) {
    it(`${name}: adds ${added.length === 0 ? 'nothing' : added.join(', ')}, and git then ignores both`, (context) => {
      if (skipUnless('setup-gitignore', noGit)) return context.skip();
      const dir = repo(before);
      expect(ensureGitignored(dir, ENTRIES)).toStrictEqual(added);
      if (added.length === 0) expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(before);
      for (const entry of ENTRIES) expect(gitIgnores(dir, entry), `${entry} after:\n${readFileSync(join(dir, '.gitignore'), 'utf8')}`).toBe(true);
      // A second run adds nothing.
      expect(ensureGitignored(dir, ENTRIES)).toStrictEqual([]);
    });
  }

  it('through `hookbox setup claude-code --transport http`: the token file next to a backup line is still ignored, and setup says it added it', (context) => {
    if (skipUnless('setup-gitignore', noGit)) return context.skip();
    const dir = repo('.claude/settings.local.json.bak\n');
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, '{"hooks":[]}\n');
    const out: string[] = [];
    // The http transport: its token goes to .claude/settings.local.json, the file the backup line only looks like.
    setupCommand('claude-code', { project: dir, config, transport: 'http', port: '47999', tokenFile: join(dir, 'private', 'token') }, (text) => out.push(text));
    expect(out.join('')).toMatch(/added to .+\.gitignore: \.hookbox\/, \.claude\/settings\.local\.json/);
    for (const entry of ENTRIES) expect(gitIgnores(dir, entry), entry).toBe(true);
  });
});
