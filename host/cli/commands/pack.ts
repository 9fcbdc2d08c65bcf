import path from 'node:path';
import type { Command } from 'commander';
import { printable, printableJson } from '../../text/index.ts';
import { type PackedHook, packHook } from '../packages/pack-hook.ts';
import { usageErrorsExitTwo } from '../options.ts';

interface PackFlags {
  readonly entry?: string;
  readonly packageName?: string;
  readonly packageVersion?: string;
  readonly outDir: string;
  readonly folder?: string;
  readonly json?: boolean;
}

/**
 * Registers `hookbox pack [project]`: builds a hook project (or takes a built
 * hook.json) into a hook package — package.json with the `hookbox` field, the
 * wasm and its manifest — and runs `npm pack` to make the tarball that
 * `hookbox add` installs. Named after `npm pack`, which it ends with.
 */
export function registerPackCommand(program: Command): void {
  usageErrorsExitTwo(program.command('pack'))
    .description('build a hook project into an npm hook package (package.json "hookbox" field, wasm, hook.json) and npm pack it into a tarball')
    .argument('[project]', 'a hook project folder (built from --entry), or a built hook.json', '.')
    .option('--entry <file>', 'the hook entry to build, relative to the project', 'hook.ts')
    .option('--package-name <name>', "npm package name (default: the project's package.json, else the folder name)")
    .option('--package-version <semver>', "package version (default: the project's package.json, else the manifest's)")
    .option('-o, --out-dir <dir>', 'where the tarball goes', '.')
    .option('--folder <dir>', 'also keep the package folder here (a new or empty folder); hookbox add takes it as well')
    .option('--json', 'print the result as one JSON object')
    .action(async (project: string, flags: PackFlags) => {
      const packed = await packHook({
        project,
        entry: flags.entry ?? 'hook.ts',
        ...(flags.packageName !== undefined && { name: flags.packageName }),
        ...(flags.packageVersion !== undefined && { version: flags.packageVersion }),
        outDir: flags.outDir,
        ...(flags.folder !== undefined && { folder: flags.folder }),
        onProgress: (message) => process.stderr.write(`hookbox: ${message}\n`),
      });
      process.stdout.write(flags.json === true ? `${printableJson(packed)}\n` : describe(packed));
    });
}

function describe(packed: PackedHook): string {
  const here = (file: string) => path.relative(process.cwd(), file) || file;
  const lines = [`packed ${printable(packed.package.name, { maxLength: 214 })}@${printable(packed.package.version, { maxLength: 80 })}: ${here(packed.tarball)}`];
  for (const hook of packed.hooks) lines.push(`  hook ${printable(hook.name, { maxLength: 80 })} (${hook.seams.join(', ')}) sha256 ${hook.sha256}`);
  lines.push(`  files: ${packed.package.files.map((file) => printable(file, { maxLength: 200 })).join(', ')}`);
  if (packed.folder !== undefined) lines.push(`  folder: ${here(packed.folder)}`);
  lines.push(`next: hookbox add ${here(packed.tarball)}`);
  return `${lines.join('\n')}\n`;
}
