/**
 * docs/reference/cli.md shows each command's `--help` as the CLI prints it:
 * one ```text block per command, starting `Usage: hookbox <command>`. This
 * builds every command as a run would (`buildProgram`), prints its help at
 * 80 columns without colour, and compares it with the block, so an option
 * added, renamed or reworded fails here until the reference says the same.
 * `HOOKBOX_UPDATE_CLI_REFERENCE=1` rewrites the blocks from the CLI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_CATALOG, buildProgram } from '../../host/cli/main.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REFERENCE = path.join(ROOT, 'docs', 'reference', 'cli.md');
const UPDATE = process.env.HOOKBOX_UPDATE_CLI_REFERENCE === '1';

/** The commands as typed after `hookbox`: every catalog entry, and `config explain`. */
const COMMANDS: readonly (readonly string[])[] = [[], ...COMMAND_CATALOG.map((entry) => [entry.name]), ['config', 'explain']];

/** What `hookbox <words> --help` prints, at 80 columns and without colour (as in a pipe). */
async function helpText(words: readonly string[]): Promise<string> {
  const program = await buildProgram(['node', 'hookbox', ...words, '--help']);
  let command: Command = program;
  for (const word of words) {
    const sub = command.commands.find((c) => c.name() === word);
    if (sub === undefined) throw new Error(`hookbox ${words.join(' ')}: no such command registered`);
    command = sub;
  }
  let out = '';
  command.configureOutput({ writeOut: (text) => (out += text), getOutHelpWidth: () => 80, getOutHasColors: () => false });
  command.outputHelp();
  return out.trimEnd();
}

/** The ```text blocks of the reference, by the command their `Usage:` line names. */
function blocks(markdown: string): Map<string, { start: number; end: number; text: string }> {
  const found = new Map<string, { start: number; end: number; text: string }>();
  for (const match of markdown.matchAll(/```text\n(Usage: hookbox((?: [a-z][a-z-]*)*)[^\n]*(?:\n(?!```)[\s\S]*?)?)\n```/g)) {
    const name = (match[2] ?? '').trim();
    const start = (match.index ?? 0) + '```text\n'.length;
    found.set(name, { start, end: start + (match[1] ?? '').length, text: match[1] ?? '' });
  }
  return found;
}

describe('docs/reference/cli.md', () => {
  it('shows every command\'s --help exactly as the CLI prints it', async () => {
    let markdown = readFileSync(REFERENCE, 'utf8');
    const expected = new Map<string, string>();
    for (const words of COMMANDS) expected.set(words.join(' '), await helpText(words));
    if (UPDATE) {
      const spans = [...blocks(markdown).entries()].sort((a, b) => b[1].start - a[1].start);
      for (const [name, span] of spans) {
        const help = expected.get(name);
        if (help !== undefined) markdown = markdown.slice(0, span.start) + help + markdown.slice(span.end);
      }
      writeFileSync(REFERENCE, markdown);
    }
    const documented = blocks(markdown);
    const missing = [...expected.keys()].filter((name) => !documented.has(name)).map((name) => `hookbox ${name}`.trim());
    expect(missing, 'commands with no ```text help block in docs/reference/cli.md').toEqual([]);
    const stale = [...documented.keys()].filter((name) => !expected.has(name)).map((name) => `hookbox ${name}`.trim());
    expect(stale, 'help blocks in docs/reference/cli.md for commands the CLI does not have').toEqual([]);
    for (const [name, help] of expected) expect(documented.get(name)?.text, `hookbox ${name} --help`).toBe(help);
  }, 120_000);
});
