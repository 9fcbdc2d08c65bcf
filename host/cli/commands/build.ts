import path, { relative } from 'node:path';
import type { Command } from 'commander';
import type { BuildHookResult } from '../../../pdk/compiler/index.ts';
// The two modules, not the config barrel (which loads every config command's code).
import { findProjectConfig, hookSourceFor, PROJECT_CONFIG } from '../../config/hook-source.ts';
import { loadOperatorConfig } from '../../config/operator-config.ts';
import { ConfigError } from '../../errors.ts';
import { printable, printableJson } from '../../text/index.ts';

export interface BuildCommandOptions {
  readonly out?: string;
  readonly config?: string;
  readonly typecheck: boolean;
  readonly json?: boolean;
}

/**
 * Registers `hookbox build <entry> [-o out.wasm]`: type-check, bundle,
 * pre-initialize and export a TS/JS hook as an Extism plugin, with
 * `hook.json` beside it. Build errors (a `BuildError`, printed by the CLI)
 * name file and line. `hookbox build --config <file>` (and `hookbox build`
 * alone, with the project's `hookbox.config.json` found from here upward)
 * builds every hook of that config from its source — what a fresh clone,
 * whose `dist/` is not in git, runs once (a `prepare` script).
 */
export function registerBuildCommand(program: Command): void {
  program
    .command('build')
    .description("compile a TypeScript/JavaScript hook to an Extism wasm plugin and its hook.json; without <entry>, every hook of the project's config")
    .argument('[entry]', 'the hook entry file (.ts or .js); without it, the hooks of --config')
    .option('-o, --out <file>', 'output wasm (default <entry dir>/dist/<entry name>.wasm)')
    .option('-c, --config <file>', `build every hook of this config from its source (default without <entry>: ${PROJECT_CONFIG} here or in a folder above)`)
    .option('--no-typecheck', 'skip type-checking')
    .option('--json', 'print the build result as one JSON object')
    .action(async (entry: string | undefined, options: BuildCommandOptions) => {
      if (entry !== undefined && options.config !== undefined) throw new ConfigError('build takes a hook entry or --config, not both');
      if (entry === undefined && options.out !== undefined) throw new ConfigError('--out needs a hook entry; a config\'s hooks are built into their own dist/');
      try {
        if (entry === undefined) return await buildConfig(options);
        if (options.typecheck) await startTypecheck();
        const result = await build(entry, options.out, options.typecheck);
        process.stdout.write(options.json === true ? `${printableJson(result)}\n` : describe(result));
      } finally {
        if (options.typecheck) await (await import('../../../pdk/compiler/typecheck-thread.ts')).stopTypecheckThread();
      }
    });
}

/**
 * TypeScript loads on the type-check thread while the compiler's own modules load here. Only once
 * a hook will be built: a thread started and never given a check kept the process from exiting.
 */
async function startTypecheck(): Promise<void> {
  (await import('../../../pdk/compiler/typecheck-thread.ts')).startTypecheckThread();
}

/** One hook, by the compiler (loaded on use: it pulls in TypeScript and esbuild, which other commands never need). */
async function build(entry: string, out: string | undefined, typecheck: boolean): Promise<BuildHookResult> {
  const { buildHook } = await import('../../../pdk/compiler/index.ts');
  return buildHook({
    entry,
    ...(out !== undefined && { outFile: out }),
    typecheck,
    onProgress: (m) => process.stderr.write(`hookbox: ${m}\n`),
  });
}

/**
 * Every hook of the project config, one after the other (a build takes both cores' worth of a
 * small machine). Only the project file's own hooks: the organisation's and the user's are not
 * the project's to build. An entry whose source cannot be found fails the command after the
 * others are built, so one odd entry does not leave the rest unbuilt.
 */
async function buildConfig(options: BuildCommandOptions): Promise<void> {
  const file = options.config !== undefined ? path.resolve(options.config) : findProjectConfig();
  if (file === undefined) {
    throw new ConfigError(`no hook entry given and no ${PROJECT_CONFIG} in ${process.cwd()} or a folder above it; pass <entry> or --config <file>`);
  }
  const config = loadOperatorConfig(file);
  if (options.typecheck && config.hooks.some((entry) => hookSourceFor(entry).kind === 'source')) await startTypecheck();
  const built: { name: string; at: string; result?: BuildHookResult; skipped?: string; missing?: string }[] = [];
  for (const entry of config.hooks) {
    const source = hookSourceFor(entry);
    const shown = `${printable(entry.name, { maxLength: 80 })} (${entry.at})`;
    if (source.kind === 'skip') {
      built.push({ name: entry.name, at: entry.at, skipped: source.why });
      if (options.json !== true) process.stdout.write(`skipped ${shown}: ${source.why}\n`);
    } else if (source.kind === 'missing') {
      built.push({ name: entry.name, at: entry.at, missing: source.why });
      process.stderr.write(`hookbox: ${file}: ${entry.at}.manifest: ${printable(source.why, { maxLength: 1000 })}\n`);
    } else {
      const result = await build(source.entry, source.wasm, options.typecheck);
      built.push({ name: entry.name, at: entry.at, result });
      if (options.json !== true) process.stdout.write(`${shown}: ${describe(result)}`);
    }
  }
  const missing = built.filter((hook) => hook.missing !== undefined).length;
  const count = built.filter((hook) => hook.result !== undefined).length;
  if (options.json === true) process.stdout.write(`${printableJson({ config: file, hooks: built })}\n`);
  else process.stdout.write(`${count} hook(s) of ${relative(process.cwd(), file) || file} built${missing > 0 ? `, ${missing} without a source` : ''}\n`);
  if (missing > 0) process.exitCode = 1;
}

function describe(result: BuildHookResult): string {
  const here = (p: string) => relative(process.cwd(), p) || p;
  const lines = [
    `built ${here(result.wasmPath)} (${(result.sizeBytes / 1024).toFixed(0)} KiB, sha256 ${result.sha256})`,
    `exports: ${result.exports.join(', ') || '(none)'}`,
    result.manifestPath === undefined ? 'no seam exports: no hook.json written' : `manifest: ${here(result.manifestPath)} (seams: ${result.seams.join(', ')})`,
  ];
  return `${lines.join('\n')}\n`;
}
