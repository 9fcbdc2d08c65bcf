/**
 * package-installs' pure policy: installs from outside the allowed registries
 * (`--registry`, `--index-url`, a URL or git package spec) and installers
 * piped from a download into a shell (`curl … | sh`, `bash <(curl …)`,
 * `sh -c "$(curl …)"`), in every program a shell command runs (guard-bash's
 * parser). Reasons start `package-installs: <rule>:`.
 */
import { downloadedArgument, downloadFeeding } from '../shared/command-guard/rules.ts';
import { oneOf, stringList } from '../shared/config.ts';
import { compileHostPattern, matchHost, type HostPattern } from '../shared/hosts.ts';
import { SHELL_TOOLS, shellCommand, walkShell, type Invocation } from '../shared/shell-walk.ts';
import { installSources } from './installs.ts';

export const RULES = ['pipe-to-shell', 'registry', 'direct-source', 'unreadable', 'config-error'] as const;
export type Rule = (typeof RULES)[number];
type Action = 'deny' | 'ask';

/** The config as the host validated it (defaults filled in): `host/catalog/package-installs.ts`. */
export interface InstallsConfig {
  readonly registries: readonly HostPattern[];
  readonly pipeToShell: Action;
  readonly outside: Action;
}

export type Verdict = { readonly action: 'allow' } | { readonly action: Action; readonly rule: Rule; readonly reason: string };

export function parseConfig(value: unknown): InstallsConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const registries = stringList(config.registries);
  const pipeToShell = oneOf(config.pipeToShell, ['deny', 'ask'] as const);
  const outside = oneOf(config.outside, ['deny', 'ask'] as const);
  if (registries === undefined) return { error: 'registries: expected an array of host patterns' };
  if (pipeToShell === undefined || outside === undefined) return { error: 'pipeToShell, outside: expected deny or ask' };
  return { registries: registries.map(compileHostPattern), pipeToShell, outside };
}

/**
 * How a program runs downloaded code: fed by a downloader earlier in its
 * pipeline, or a downloading substitution as its script — read by the shared
 * command rules (`shared/command-guard/`), the same reading as guard-bash's
 * and destructive-commands' `remote-script`.
 */
function pipedInstaller(inv: Invocation, fedBy: readonly (Invocation | undefined)[]): string | undefined {
  const feeder = downloadFeeding(inv, fedBy);
  if (feeder !== undefined) return `${feeder.name} … | ${inv.name}`;
  const arg = downloadedArgument(inv);
  return arg === undefined ? undefined : `${inv.name} ${arg.slice(0, 80)}`;
}

/** Judges one pre-tool call: the first objection in the command decides (a piped installer first). */
export function judgeCall(toolName: string, args: Record<string, unknown>, config: InstallsConfig): Verdict {
  if (!SHELL_TOOLS.has(toolName)) return { action: 'allow' };
  const command = shellCommand(args);
  if (command === undefined) return { action: 'allow' };
  let found: Exclude<Verdict, { action: 'allow' }> | undefined;
  const unreadable = walkShell(command, (_command, inv, fedBy) => {
    if (inv === undefined || found?.rule === 'pipe-to-shell') return;
    const piped = pipedInstaller(inv, fedBy);
    if (piped !== undefined) {
      found = { action: config.pipeToShell, rule: 'pipe-to-shell', reason: `package-installs: pipe-to-shell: ${toolName} runs downloaded code unseen (${piped}); download the installer, read it, then run the file` };
      return;
    }
    if (found !== undefined) return;
    for (const source of installSources(inv) ?? []) {
      if (source.host !== undefined && matchHost(config.registries, source.host) !== undefined) continue;
      const where = source.host === undefined ? 'a place that names no host' : JSON.stringify(source.host);
      found = { action: config.outside, rule: source.kind, reason: `package-installs: ${source.kind}: ${source.manager} installs from ${where} (${JSON.stringify(source.text.slice(0, 120))}), not an allowed registry` };
      return;
    }
  });
  if (found !== undefined) return found;
  if (unreadable) return { action: 'deny', rule: 'unreadable', reason: `package-installs: unreadable: ${toolName}: the command nests scripts too deeply to check` };
  return { action: 'allow' };
}
