import type { ImportResult } from './import-hooks.ts';
import { printable } from '../text/index.ts';
import { PROTOCOL_LABEL, TOOL_DEFAULT_TIMEOUT_MS } from './protocol.ts';

/** Text read from the imported settings file (commands, matchers, names) may hold escape sequences: one printable line each. */
function shown(text: string): string {
  return printable(text, { maxLength: 1000 });
}

/**
 * The policy an imported hook runs under, stated to the person importing it.
 * Kept in one place so the CLI output and the README say the same thing.
 */
export function importPolicy(label: string): string[] {
  return [
    `Every imported hook is a shell command that runs UNSANDBOXED, with your user's rights, in the session's working directory. It is marked "unsandboxed": true in the config, [unsandboxed] in the transcript and "sandbox": "shell" in the audit log (hook/invoke).`,
    `Timeouts: ${label}'s (${TOOL_DEFAULT_TIMEOUT_MS / 1000} s unless the hook sets one); at the timeout the hook's process group is killed.`,
    `Fail closed (hookbox's policy): a timeout, a crash, malformed output or an exit code other than 0 and 2 is a fault; a fault denies the tool call (a timeout asks, and an ask without a prompter is a deny) or blocks the prompt or the tool result. ${label} would carry on instead: set "failPolicy": "open" on a hook for that.`,
    `Deterministic order: hooks on one seam run one after another in the order listed, and a later hook cannot relax a deny or a block. ${label} runs them in parallel.`,
    `Input rewrite: a PreToolUse hook's updatedInput with permissionDecision "allow" is read back onto hookbox's tool as a rewrite (allow {arguments}), and every hook is asked again on the rewritten call. Not offered: updatedInput anywhere else, and tool-output replacement; a hook that returns them gets a schema fault naming the field, never a silent drop.`,
    `A Stop hook that blocks continues the turn at most --max-continuations times (the loop guard); stop_hook_active tells it the turn was already continued.`,
  ];
}

/** A person-readable account of an import: what was imported (and how), what was not and why, and the policy. */
export function renderImportReport(result: ImportResult): string {
  const label = PROTOCOL_LABEL[result.protocol];
  const lines: string[] = [];
  const weakening = result.refused.filter((refused) => refused.weakens);
  if (weakening.length > 0) {
    lines.push(`WARNING: ${weakening.length} deny/ask rule(s) of ${shown(result.source)} are NOT enforced by hookbox (listed under "Not imported"); add a hook for them.`, '');
  }
  if (result.missing.length > 0) {
    lines.push(`WARNING: ${result.missing.length} program(s) the hooks start were not found (checked from the project directory); \`hookbox run\` faults each call of these hooks, failing closed:`);
    for (const gone of result.missing) lines.push(`  ${shown(gone.hook)}: ${shown(gone.program)}: ${shown(gone.problem)}`);
    lines.push('');
  }
  if (result.permissions !== undefined) {
    const rules = result.permissions.permissions;
    const count = (rules.deny?.length ?? 0) + (rules.ask?.length ?? 0) + (rules.allow?.length ?? 0);
    lines.push(`Imported ${count} permission rule(s) as the native hook ${result.permissions.name} (tools/pre-execute; deny, then ask, then allow; fails closed):`);
    for (const behaviour of ['deny', 'ask', 'allow'] as const) {
      for (const rule of rules[behaviour] ?? []) lines.push(`  ${behaviour} ${shown(rule)}`);
    }
    lines.push('');
  }
  lines.push(`Imported ${result.imported.length} ${label} hook(s) from ${shown(result.source)}:`);
  for (const hook of result.imported) {
    const { entry } = hook;
    const matcher = hook.matcher === undefined ? '' : ` [matcher ${shown(JSON.stringify(hook.matcher))}]`;
    const scope =
      entry.tools !== undefined ? `  tools: ${shown(entry.tools.join(', '))}` : entry.sources !== undefined ? `  sources: ${entry.sources.join(', ')}` : '';
    lines.push(`  ${shown(entry.name)}  ${shown(hook.event)}${matcher} → ${entry.seams.join(', ')}${scope}  timeout ${entry.timeoutMs / 1000} s`);
    lines.push(`      $ ${shown(entry.command)}`);
    if (entry.env !== undefined) lines.push(`      env: ${shown(Object.keys(entry.env).join(', '))}`);
    for (const note of hook.notes) lines.push(`      note: ${shown(note)}`);
  }
  const notImported = [...result.skipped, ...result.refused];
  if (notImported.length > 0) {
    lines.push('', `Not imported (${notImported.length}):`);
    for (const skip of notImported) lines.push(`  ${shown(skip.at)}: ${shown(skip.what)} — ${shown(skip.why)}`);
  }
  if (result.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of result.notes) lines.push(`  ${shown(note)}`);
  }
  lines.push('', 'Policy:');
  for (const rule of importPolicy(label)) lines.push(`  • ${rule}`);
  return `${lines.join('\n')}\n`;
}
