import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import pc from 'picocolors';
import type { HookPackage } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { printable, printableJson } from '../../text/index.ts';
import { type ConfigChange, planConfigChange, writePackageHooks } from '../packages/config-entries.ts';
import { installHookPackage, packageSource } from '../packages/install.ts';
import { assertSameAsReviewed } from '../packages/same-as-reviewed.ts';
import { renderReview } from '../packages/review.ts';
import { usageErrorsExitTwo } from '../options.ts';

interface AddFlags {
  readonly config: string;
  readonly yes?: boolean;
  readonly offline?: boolean;
  readonly json?: boolean;
}

/** Where `hookbox add` installs packages, relative to the config file's folder. */
export const PACKAGES_DIR = path.join('.hookbox', 'packages');

/**
 * Registers `hookbox add <tarball | folder | package name>`: npm installs the
 * package into a scratch folder first (no lifecycle script runs), hookbox
 * shows what each hook requests, asks (or `--yes`), then npm installs it
 * into `.hookbox/packages` beside the config and the hooks are written into
 * the config pinned by package name, version, wasm sha256 and whole manifest. Declining, or
 * a non-interactive stdin without `--yes`, leaves the project untouched.
 */
export function registerAddCommand(program: Command): void {
  usageErrorsExitTwo(program.command('add'))
    .description('install a hook package with npm into .hookbox/packages, review what its hooks request, and pin them in the config')
    .argument('<package>', 'a tarball (npm pack), a package folder, or a package name npm resolves')
    .option('-c, --config <file>', 'the config to add the hooks to (created if missing)', 'hookbox.config.json')
    .option('-y, --yes', 'add without asking (required when stdin is not a terminal)')
    .option('--offline', 'let npm use only tarballs, folders and its cache (npm --offline)')
    .option('--json', 'print the review and the result as one JSON object')
    .action(async (argument: string, flags: AddFlags) => {
      process.exitCode = await addPackage(argument, flags);
    });
}

async function addPackage(argument: string, flags: AddFlags): Promise<number> {
  const configFile = path.resolve(flags.config);
  const source = packageSource(argument, process.cwd());
  const scratch = mkdtempSync(path.join(tmpdir(), 'hookbox-add-'));
  try {
    const reviewed = installHookPackage(source, scratch, { offline: flags.offline === true });
    planConfigChange(configFile, reviewed);
    const notAdded = () => printableJson({ config: configFile, package: summary(reviewed), added: false });
    const review = renderReview(reviewed);
    if (flags.json !== true) process.stdout.write(review);
    if (flags.yes !== true) {
      if (process.stdin.isTTY !== true) {
        if (flags.json === true) process.stdout.write(`${notAdded()}\n`);
        throw new ConfigError('stdin is not a terminal, so hookbox cannot ask: review the hooks above and pass --yes to add them (the project was not changed)');
      }
      // With --json the review is in the JSON, but the person asked must see it too.
      if (flags.json === true) process.stderr.write(review);
      if (!(await confirmed(reviewed, configFile))) {
        if (flags.json === true) process.stdout.write(`${notAdded()}\n`);
        else process.stderr.write('hookbox: not added; the project was not changed\n');
        return 1;
      }
    }
    const installed = installHookPackage(source, path.join(path.dirname(configFile), PACKAGES_DIR), {
      name: reviewed.name,
      offline: flags.offline === true,
    });
    assertSameAsReviewed(reviewed, installed, source.spec);
    const change = writePackageHooks(configFile, installed);
    process.stdout.write(flags.json === true ? `${printableJson({ config: configFile, package: summary(installed), added: true, change })}\n` : describe(change, installed));
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Asks y/N on the terminal (stderr), after the review. */
async function confirmed(pkg: HookPackage, configFile: string): Promise<boolean> {
  const count = pkg.hooks.length === 1 ? 'this hook' : `these ${pkg.hooks.length} hooks`;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  try {
    const answer = await new Promise<string | undefined>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(undefined));
      process.stderr.write(`add ${count} to ${configFile}? [y/N] `);
    });
    return answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

function summary(pkg: HookPackage) {
  return {
    name: pkg.name,
    version: pkg.version,
    ...(pkg.description !== undefined && { description: pkg.description }),
    dir: pkg.dir,
    hooks: pkg.hooks.map((hook) => ({ ...hook.manifest, manifest: hook.manifestFile, sha256: hook.sha256 })),
  };
}

function describe(change: ConfigChange, pkg: HookPackage): string {
  const lines = change.hooks.map(
    (hook) =>
      `${pc.green(hook.replaced ? 'updated' : 'added')} ${printable(hook.name, { maxLength: 80 })} (${hook.at}) pinned to ${printable(pkg.name, { maxLength: 214 })}@${printable(pkg.version, { maxLength: 80 })} sha256 ${hook.pin.sha256}`,
  );
  for (const name of change.removed) lines.push(`${pc.yellow('removed')} ${printable(name, { maxLength: 80 })}: this version of the package no longer ships it`);
  lines.push(pc.dim(`config: ${change.file}; installed in ${pkg.dir}`));
  return `${lines.join('\n')}\n`;
}
