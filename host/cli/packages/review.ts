import path from 'node:path';
import pc from 'picocolors';
import type { HookPackage, PackagedHook } from '../../config/index.ts';
import { PROTOCOL_VERSION } from '../../seams/index.ts';
import { type Capabilities, pathGrant } from '../../runner/index.ts';
import { printable } from '../../text/index.ts';

/** Longest a single package-provided value is shown (a description, a host, a config key's text). */
const FIELD_MAX = 200;

/** Package text, one escaped line: names, descriptions, hosts and keys all come from a hostile package. */
function p(text: string): string {
  return printable(text, { maxLength: FIELD_MAX });
}

/**
 * What `hookbox add` shows before asking: for each hook, the seams and tools
 * it handles, the limits and capabilities it requests and the config keys it
 * reads. Every value from the package is escaped onto its own line (no
 * escape sequence, newline or bidi control can draw on the terminal); the
 * labels are the host's.
 */
export function renderReview(pkg: HookPackage): string {
  const lines = [`${pc.bold('package')} ${p(pkg.name)}@${p(pkg.version)}${pkg.description === undefined ? '' : ` — ${p(pkg.description)}`}`];
  for (const hook of pkg.hooks) lines.push('', ...hookLines(pkg, hook));
  lines.push(
    '',
    pc.dim('Capabilities are requests: a hook gets only what the config also grants (add a "grant" to its entry); by default it gets none.'),
  );
  return `${lines.join('\n')}\n`;
}

function hookLines(pkg: HookPackage, hook: PackagedHook): string[] {
  const { manifest } = hook;
  const protocol = manifest.protocol === PROTOCOL_VERSION ? `hookbox wire v${PROTOCOL_VERSION}` : `${manifest.protocol} hook protocol`;
  const lines = [
    `${pc.bold('hook')} ${p(manifest.name)} ${p(manifest.version)} (${protocol})`,
    ...(manifest.description === undefined ? [] : [`  description:  ${p(manifest.description)}`]),
    `  seams:        ${manifest.seams.join(', ')}`,
    `  tools:        ${manifest.tools === undefined ? 'every tool' : manifest.tools.map(p).join(', ')}`,
    `  limits:       ${limitsText(manifest.limits)}`,
    ...capabilityLines(manifest.capabilities),
  ];
  const keys = Object.entries(manifest.config ?? {});
  lines.push(`  config keys:  ${keys.length === 0 ? 'none' : ''}`.trimEnd());
  for (const [key, text] of keys) lines.push(`    ${p(key)}: ${p(text)}`);
  const wasm = path.relative(pkg.dir, hook.wasmFile).split(path.sep).join('/');
  lines.push(`  wasm:         ${p(wasm)} sha256 ${hook.sha256}`);
  return lines;
}

function limitsText(limits: Record<string, number | undefined> | undefined): string {
  const set = Object.entries(limits ?? {}).filter(([, value]) => value !== undefined);
  return set.length === 0 ? "none requested (hookbox's defaults)" : set.map(([key, value]) => `${key} ${value}`).join(', ');
}

function capabilityLines(capabilities: Capabilities | undefined): string[] {
  const { allowedHosts, allowedPaths, env, clock } = capabilities ?? {};
  const requested: string[] = [];
  if (allowedHosts !== undefined && allowedHosts.length > 0) requested.push(`    network hosts: ${allowedHosts.map(p).join(', ')}`);
  for (const [host, grant] of Object.entries(allowedPaths ?? {})) {
    const { guest, write } = pathGrant(grant);
    requested.push(`    directory:     ${p(host)} as ${p(guest)} (${write ? pc.yellow('read-write') : 'read-only'})`);
  }
  if (env !== undefined && env.length > 0) requested.push(`    environment:   ${env.map(p).join(', ')}`);
  if (clock === true) requested.push('    clock:         a real clock');
  return requested.length === 0 ? ['  capabilities: none requested'] : ['  capabilities: requested', ...requested];
}
