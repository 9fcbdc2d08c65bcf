/**
 * The CLI's command catalog (host/cli/main.ts) lists each command without
 * importing its module; this checks the listing against what each module
 * registers, and that a run registers the real command it names.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_CATALOG, buildProgram } from '../../host/cli/main.ts';

describe('command catalog', () => {
  it.each(COMMAND_CATALOG.map((entry) => [entry.name, entry] as const))('%s: name, description and help term match the module', async (_name, entry) => {
    const program = new Command();
    (await entry.register())(program);
    expect(program.commands).toHaveLength(1);
    const command = program.commands[0] as Command;
    expect(command.name()).toBe(entry.name);
    expect(command.description()).toBe(entry.description);
    expect(program.createHelp().subcommandTerm(command)).toBe(entry.term);
  });

  it('the top-level help lists every command the same way, loaded or not', async () => {
    const help = (program: Command) => program.helpInformation();
    expect(help(await buildProgram(['node', 'hookbox', '--help']))).toBe(help(await buildProgram()));
  });

  it('registers the real command the argv names (with its options), and only that one', async () => {
    const program = await buildProgram(['node', 'hookbox', 'call', 'x.wasm', '--seam', 'tools/pre-execute']);
    const call = program.commands.find((c) => c.name() === 'call');
    expect(call?.options.map((o) => o.long)).toContain('--seam');
    expect(program.commands.find((c) => c.name() === 'build')?.options).toEqual([]);
    const help = await buildProgram(['node', 'hookbox', 'help', 'build']);
    expect(help.commands.find((c) => c.name() === 'build')?.options.length).toBeGreaterThan(0);
  });
});
