import { relative } from 'node:path';
import type { Command } from 'commander';
import type { BuildHookResult } from '../../../pdk/compiler/index.ts';
import { printableJson } from '../../text/index.ts';

export interface BuildCommandOptions {
  readonly out?: string;
  readonly typecheck: boolean;
  readonly json?: boolean;
}

/**
 * Registers `hookbox build <entry> [-o out.wasm]`: type-check, bundle,
 * pre-initialize and export a TS/JS hook as an Extism plugin, with
 * `hook.json` beside it. Build errors (a `BuildError`, printed by the CLI)
 * name file and line.
 */
export function registerBuildCommand(program: Command): void {
  program
    .command('build')
    .description('compile a TypeScript/JavaScript hook to an Extism wasm plugin and its hook.json')
    .argument('<entry>', 'the hook entry file (.ts or .js)')
    .option('-o, --out <file>', 'output wasm (default <entry dir>/dist/<entry name>.wasm)')
    .option('--no-typecheck', 'skip type-checking')
    .option('--json', 'print the build result as one JSON object')
    .action(async (entry: string, options: BuildCommandOptions) => {
      // TypeScript loads on the type-check thread while the compiler's own modules load here.
      if (options.typecheck) (await import('../../../pdk/compiler/typecheck-thread.ts')).startTypecheckThread();
      // Loaded on use: the compiler pulls in TypeScript and esbuild, which other commands never need.
      const { buildHook } = await import('../../../pdk/compiler/index.ts');
      const result = await buildHook({
        entry,
        ...(options.out !== undefined && { outFile: options.out }),
        typecheck: options.typecheck,
        onProgress: (m) => process.stderr.write(`hookbox: ${m}\n`),
      });
      process.stdout.write(options.json === true ? `${printableJson(result)}\n` : describe(result));
    });
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
