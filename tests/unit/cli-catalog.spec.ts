/**
 * The CLI's command catalog (host/cli/main.ts) lists each command without
 * importing its module; this checks the listing against what each module
 * registers, and that a run registers the real command it names.
 */
import { readdirSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_CATALOG, buildProgram, telemetryCommands } from '../../host/cli/main.ts';

const COMMANDS_DIR = new URL('../../host/cli/commands/', import.meta.url);

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

  it('host/cli/commands/ holds exactly the catalog\'s commands: every register function of every file there registers a catalog entry, and every entry is registered by one', async () => {
    const registered: string[] = [];
    for (const file of readdirSync(COMMANDS_DIR).filter((name) => name.endsWith('.ts'))) {
      const module = (await import(new URL(file, COMMANDS_DIR).href)) as Record<string, unknown>;
      const registers = Object.entries(module).filter(([name, value]) => /^register\w*Commands?$/.test(name) && typeof value === 'function');
      expect(registers.length, `${file} exports a register…Command function`).toBeGreaterThan(0);
      for (const [, register] of registers) {
        const program = new Command();
        (register as (program: Command) => void)(program);
        registered.push(...program.commands.map((command) => command.name()));
      }
    }
    expect(registered.sort()).toEqual(COMMAND_CATALOG.map((entry) => entry.name).sort());
  });

  it('OpenTelemetry starts for the commands the catalog marks, the ones that run sessions or dispatch seams', () => {
    expect([...telemetryCommands()].sort()).toEqual(['acp', 'demo', 'run', 'serve']);
  });
});
