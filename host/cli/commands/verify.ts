import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { type HookPin, type ManifestPin, type PinProblem, PROJECT_CONFIG, type ResolvedHookEntry, checkPin, findProjectConfig, loadLayeredConfig } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { printable, printableJson } from '../../text/index.ts';
import { usageErrorsExitTwo } from '../options.ts';

/** One configured hook as `hookbox verify` found it. */
export interface VerifiedHook {
  readonly name: string;
  /** The config file (organisation, user or project layer) that defines it. */
  readonly file: string;
  readonly at: string;
  readonly kind: 'wasm' | 'manifest' | 'command' | 'permissions';
  /**
   * `ok`: matches its pin. `changed`: wasm, any manifest field or package differs from the pin (or an unpinned
   * manifest from its wasm); it will not load. `unpinned`: no pin to check. `unsandboxed`: a shell command.
   * `native`: permission rules enforced by the host itself (no code to pin).
   */
  readonly status: 'ok' | 'changed' | 'unpinned' | 'unsandboxed' | 'native';
  readonly pin?: HookPin;
  /** sha256 of the wasm on disk. */
  readonly sha256?: string;
  /** The pin of the manifest on disk (what `hookbox add` writes as `pin.manifest`). */
  readonly manifestPin?: ManifestPin;
  readonly problems: readonly PinProblem[];
}

/**
 * Registers `hookbox verify`: every hook the commands would load — the
 * organisation, user and project layers — against its pin; exit 1 when one
 * changed. It runs no hook, so without `--config` it checks the
 * `hookbox.config.json` of the working folder or the nearest folder above it.
 */
export function registerVerifyCommand(program: Command): void {
  usageErrorsExitTwo(program.command('verify'))
    .description("check every configured hook against its pin (the wasm's sha256, every field of the manifest, the package's name and version); exit 1 when one changed")
    .option('-c, --config <file>', 'the project config (default: hookbox.config.json here or in the nearest folder above; none is an error); the organisation and user layers are checked too')
    .option('--json', 'print one JSON object: the layer files, ok, and each hook with its file, status and problems')
    .action((flags: { config?: string; json?: boolean }) => {
      // Found from here upward, as `build` finds it: verify runs no hook, and in a subfolder of the
      // project it used to check no project hook at all and exit 0.
      const project = flags.config ?? findProjectConfig();
      if (project === undefined) {
        throw new ConfigError(`no ${PROJECT_CONFIG} in ${process.cwd()} or a folder above it; pass --config <file> to name the project's config`);
      }
      const config = loadLayeredConfig(project === undefined ? {} : { project: path.resolve(project) });
      const files = config.layers.filter((layer) => layer.present && layer.shadowedBy === undefined).map((layer) => layer.file);
      const hooks = config.hooks.map(verifyEntry);
      const ok = hooks.every((hook) => hook.status !== 'changed');
      process.stdout.write(flags.json === true ? `${printableJson({ configs: files, ok, hooks })}\n` : describe(files, hooks));
      process.exitCode = ok ? 0 : 1;
    });
}

/** Checks one config entry (no wasm is loaded or run: digests and package.json only). */
export function verifyEntry(entry: ResolvedHookEntry): VerifiedHook {
  const base = { name: entry.name, file: entry.file, at: entry.at, ...(entry.pin !== undefined && { pin: entry.pin }) };
  if (entry.command !== undefined) return { ...base, kind: 'command', status: 'unsandboxed', problems: [] };
  if (entry.permissions !== undefined) return { ...base, kind: 'permissions', status: 'native', problems: [] };
  const check = checkPin(entry);
  return {
    ...base,
    kind: entry.manifest !== undefined ? 'manifest' : 'wasm',
    status: check.status,
    ...(check.wasmSha256 !== undefined && { sha256: check.wasmSha256 }),
    ...(check.manifestPin !== undefined && { manifestPin: check.manifestPin }),
    problems: check.problems,
  };
}

const LABEL: Record<VerifiedHook['status'], string> = {
  ok: pc.green('ok       '),
  changed: pc.red('CHANGED  '),
  unpinned: pc.yellow('unpinned '),
  unsandboxed: pc.dim('shell    '),
  native: pc.dim('rules    '),
};

function describe(files: readonly string[], hooks: readonly VerifiedHook[]): string {
  const lines = [pc.dim(`config: ${files.join(', ') || '(no config file)'}`)];
  for (const hook of hooks) {
    const where = files.length > 1 ? `${hook.at} of ${hook.file}` : hook.at;
    const name = `${printable(hook.name, { maxLength: 80 })} (${where})`;
    const pinned = hook.pin?.package === undefined ? '' : ` ${printable(hook.pin.package, { maxLength: 214 })}@${printable(hook.pin.version ?? '*', { maxLength: 80 })}`;
    if (hook.status === 'unsandboxed') lines.push(`${LABEL.unsandboxed}${name}: a shell command, no digest to check`);
    else if (hook.status === 'native') lines.push(`${LABEL.native}${name}: permission rules the host enforces, no digest to check`);
    else if (hook.status === 'changed') {
      lines.push(`${LABEL.changed}${name}${pinned}: refused by run until re-added or restored`);
      for (const problem of hook.problems) lines.push(`  ${printable(problem.message, { maxLength: 1000 })}`);
    } else {
      const what = hook.status === 'ok' ? `pinned${pinned}` : 'not pinned (hookbox add pins package hooks)';
      lines.push(`${LABEL[hook.status]}${name}: ${what}, sha256 ${hook.sha256 ?? '?'}`);
    }
  }
  const changed = hooks.filter((hook) => hook.status === 'changed').length;
  lines.push(changed === 0 ? `${hooks.length} hook(s) checked, none changed` : `${changed} of ${hooks.length} hook(s) changed`);
  return `${lines.join('\n')}\n`;
}
