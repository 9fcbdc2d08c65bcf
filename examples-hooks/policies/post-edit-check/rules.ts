/**
 * post-edit-check's pure policy: after a tool call that changed a file
 * (write/edit tools, `apply_patch`, a shell command writing one — read with
 * `../shared/tool-targets.ts`), the operator's check signal (a linter) runs;
 * when it fails, its cleaned, capped output goes to the model as context, or
 * the result is blocked (`onFailure`). Reasons start with
 * `post-edit-check: <rule>:`. No PDK globals.
 */
import { signalText } from '../shared/signal-text.ts';
import { callTargets } from '../shared/tool-targets.ts';

export const RULES = ['failed', 'config-error'] as const;
export type Rule = (typeof RULES)[number];

/** The config as the host validated it (`host/catalog/post-edit-check.ts`), defaults filled. */
export interface PostEditCheckConfig {
  readonly signal: string;
  readonly onFailure: 'context' | 'block';
  readonly maxChars: number;
}

/** What a signal printed (the PDK's `SignalOutput`). */
export interface CheckOutput {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}

export type Verdict = { readonly action: 'pass' } | { readonly action: 'accept'; readonly additionalContext: string } | { readonly action: 'block'; readonly reason: string };

/** The config, or why it is not one (the host checks it first; this guards a hand-made plugin config). */
export function parseConfig(raw: string | undefined): PostEditCheckConfig | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    return { error: 'the policy config is not JSON' };
  }
  const { signal, onFailure, maxChars } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof signal !== 'string' || signal === '') return { error: 'signal: expected the name of a declared signal' };
  if (onFailure !== 'context' && onFailure !== 'block') return { error: 'onFailure: expected "context" or "block"' };
  if (typeof maxChars !== 'number' || !(maxChars > 0)) return { error: 'maxChars: expected a positive number' };
  return { signal, onFailure, maxChars };
}

/** The first file the call changed (what the reason names), or `undefined` when it changed none. */
export function changedFile(toolName: string, args: Record<string, unknown>): string | undefined {
  return callTargets(toolName, args).targets.find((target) => target.op !== 'delete')?.path;
}

/** What a check's run means for the result. */
export function judgeCheck(output: CheckOutput, changed: string, config: PostEditCheckConfig): Verdict {
  if (output.exitCode === 0) return { action: 'pass' };
  const text = signalText(output, config.maxChars);
  const head = `post-edit-check: failed: the check "${config.signal}" exited ${output.exitCode ?? 'by a signal'} after ${JSON.stringify(changed.slice(0, 200))} changed`;
  const message = text === '' ? head : `${head}:\n${text}`;
  return config.onFailure === 'block' ? { action: 'block', reason: message } : { action: 'accept', additionalContext: message };
}
