import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type ImportResult, importClaudeSettingsFile, importCodexHooksFile, importedConfig, renderImportReport } from '../../bridges/index.ts';
import { ConfigError } from '../../errors.ts';
import { printableJson } from '../../text/index.ts';

interface ImportFlags {
  readonly output?: string;
  readonly force?: boolean;
}

/**
 * Writes the imported config to `-o FILE` (report on stdout), or prints it on
 * stdout (report on stderr, so the config can be piped).
 */
function emit(result: ImportResult, flags: ImportFlags): void {
  const json = `${printableJson(importedConfig(result), 2)}\n`;
  const report = renderImportReport(result);
  if (flags.output === undefined) {
    process.stderr.write(report);
    process.stdout.write(json);
    return;
  }
  const out = resolve(flags.output);
  if (existsSync(out) && flags.force !== true) throw new ConfigError(`${out}: already exists; pass --force to overwrite it`);
  writeFileSync(out, json);
  process.stdout.write(`${report}\nWrote ${out}. Run: hookbox run --config ${flags.output}\n`);
}

/** Registers `hookbox import-claude` and `hookbox import-codex`. */
export function registerImportCommands(program: Command): void {
  program
    .command('import-claude')
    .description("convert the hooks of a Claude Code settings file into a hookbox config of shell hooks (unsandboxed, Claude Code's timeout, failing closed)")
    .argument('<settings.json>', 'a Claude Code settings file (~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json) or a plugin hooks.json')
    .option('-o, --output <file>', 'write the config here (default: print it on stdout, the report on stderr)')
    .option('--force', 'overwrite the --output file')
    .action((file: string, flags: ImportFlags) => emit(importClaudeSettingsFile(file), flags));
  program
    .command('import-codex')
    .description("convert the hooks of a Codex hooks.json or config.toml into a hookbox config of shell hooks (unsandboxed, Codex's timeout, failing closed)")
    .argument('<hooks.json|config.toml>', 'a Codex hooks.json, or a config.toml with [hooks] tables')
    .option('-o, --output <file>', 'write the config here (default: print it on stdout, the report on stderr)')
    .option('--force', 'overwrite the --output file')
    .action((file: string, flags: ImportFlags) => emit(importCodexHooksFile(file), flags));
}
