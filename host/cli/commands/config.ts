import { resolve } from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { type ConfigExplanation, type ExplainedValue, type Origin, type ResolvedHookEntry, explainConfig, loadEntryManifest, loadLayeredConfig } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { printable, printableJson } from '../../text/index.ts';

/** `hookbox config explain` as text: the layers, the hooks in order, what is passed down and locked, each value with its layer. */
export function renderExplanation(explanation: ConfigExplanation): string {
  const lines = ['layers, highest first:'];
  for (const layer of explanation.layers) {
    const state = layer.shadowedBy !== undefined ? ` — already loaded as the ${layer.shadowedBy} layer` : layer.present ? '' : ' — absent';
    lines.push(`  ${layer.layer.padEnd(12)} ${shown(layer.file)} (${layer.from})${pc.dim(state)}`);
  }
  lines.push('', explanation.hooks.length === 0 ? 'hooks: none' : 'hooks, in the order they run:');
  explanation.hooks.forEach((hook, index) => {
    lines.push(`  ${index + 1}. ${pc.bold(shown(hook.name))} — ${hook.layer} (${shown(hook.file)}: ${hook.at})`);
    lines.push(...settingLines(hook.settings, '       '));
  });
  const defaults = Object.keys(explanation.defaults).length;
  lines.push('', defaults === 0 ? 'defaults passed down: none' : 'defaults passed down (inherited by lower layers, and their bounds):');
  lines.push(...settingLines(explanation.defaults, '  '));
  const locked = Object.entries(explanation.locked) as [string, Origin][];
  lines.push('', locked.length === 0 ? 'locked: nothing' : 'locked (no lower layer may set it):');
  for (const [key, origin] of locked) lines.push(`  ${key.padEnd(28)} ${pc.dim(where(origin))}`);
  return `${lines.join('\n')}\n`;
}

function settingLines(settings: Readonly<Record<string, ExplainedValue>>, indent: string): string[] {
  return Object.entries(settings).map(([key, setting]) => `${indent}${key.padEnd(16)} ${shown(JSON.stringify(setting.value)).padEnd(28)} ${pc.dim(where(setting))}`);
}

function where(origin: Origin): string {
  return `${origin.layer}: ${shown(origin.file)}: ${origin.at}`;
}

/** Config files are the operator's, but a path or value may still hold control characters: escaped. */
function shown(text: string): string {
  return printable(text, { maxLength: 300 });
}

function manifestProblems(hooks: readonly ResolvedHookEntry[]): string[] {
  const problems: string[] = [];
  for (const hook of hooks) {
    if (hook.manifest === undefined) continue;
    try {
      loadEntryManifest(hook);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  }
  return problems;
}

/** Registers `hookbox config explain [--config F] [--json]`. */
export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('the layered configuration (organisation, user, project): config explain shows the effective one');
  config
    .command('explain')
    .description('print the effective configuration with the layer, file and JSON path each value came from')
    .option('-c, --config <file>', 'the project layer (hookbox.config.json)')
    .option('--json', 'print the explanation as JSON')
    .action((flags: { config?: string; json?: boolean }) => {
      const layered = loadLayeredConfig(flags.config === undefined ? {} : { project: resolve(flags.config) });
      process.stdout.write(flags.json === true ? `${printableJson(explainConfig(layered), 2)}\n` : renderExplanation(explainConfig(layered)));
      // The explanation reads only the config files; a hook whose manifest is missing or invalid
      // would still fail every event, so it fails the command too, naming file, entry and manifest.
      const problems = manifestProblems(layered.hooks);
      for (const problem of problems) process.stderr.write(`${pc.red('hookbox:')} ${printable(problem, { maxLength: 2000 })}\n`);
      if (problems.length > 0) process.exitCode = 1;
    });
}
