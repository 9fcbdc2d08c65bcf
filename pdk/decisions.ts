import type { ContinuationDecision, PostToolDecision, PreToolDecision, PromptDecision, SeamId, SeamTypes } from './types.ts';

/** Pre-tool `allow`: the call may run. */
export type PreToolAllow = Extract<PreToolDecision, { action: 'allow' }>;
/** Prompt-submit `allow`: the prompt goes on, optionally rewritten or with context added. */
export type PromptAllow = Extract<PromptDecision, { action: 'allow' }>;
/** Post-tool `accept`: the result goes on, optionally rewritten or with context added. */
export type PostToolAccept = Extract<PostToolDecision, { action: 'accept' }>;
/** `continue`: the turn goes on with a steering message. */
export type ContinueDecision = Extract<ContinuationDecision, { action: 'continue' }>;

// Strict seam schemas refuse undefined-valued keys on the wire, so helpers
// only copy the options that are actually set.
function defined<T extends object>(base: T, opts: Record<string, string | undefined> | undefined): T {
  if (opts === undefined) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(opts)) if (value !== undefined) out[key] = value;
  return out as T;
}

/**
 * `allow` for the pre-tool gate (`{reason?, arguments?}`: `arguments`
 * rewrites the call, see {@link rewrite}), for a permission request
 * (`{reason?}`: answer for the person, the call runs without the question),
 * for prompt-submit (`{content?, additionalContext?}`: rewrite the prompt,
 * inject context) or for pre-compact (`{additionalContext?}`: what the
 * summary must keep). Options that are `undefined` are left out of the decision.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   preTool: (p) => (p.toolName === 'read' ? allow({ reason: 'read-only tool' }) : undefined),
 *   promptSubmit: (p) => allow({ additionalContext: 'Use pnpm, not npm.' }),
 *   permissionRequest: (p) => (String(p.arguments.command).startsWith('npm test') ? allow({ reason: 'tests are fine' }) : undefined),
 *   preCompact: () => allow({ additionalContext: 'Keep the list of failing tests.' }),
 * });
 * ```
 */
export function allow(): { action: 'allow' };
export function allow(opts: { reason?: string; arguments?: Record<string, unknown> }): PreToolAllow;
export function allow(opts: { content?: string; additionalContext?: string }): PromptAllow;
export function allow(opts?: {
  content?: string;
  additionalContext?: string;
  reason?: string;
  arguments?: Record<string, unknown>;
}): PreToolAllow | PromptAllow {
  if (opts?.arguments === undefined) return defined({ action: 'allow' as const }, opts as Record<string, string | undefined> | undefined);
  const { arguments: args, ...text } = opts;
  return { ...defined({ action: 'allow' as const }, text), arguments: args };
}

/**
 * Pre-tool rewrite: allow the call with these arguments instead of the
 * model's. `args` is the complete new argument object of the tool (spread
 * the old one to change one field), checked against the tool's argument
 * schema. The host then asks every other pre-tool hook again on the final
 * arguments, so give the same answer when handed your own output: a rewrite
 * that keeps changing the call is denied after a few passes.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   preTool: (p) => {
 *     const command = String(p.arguments.command ?? '');
 *     if (p.toolName !== 'bash' || !/^terraform apply\b/.test(command) || command.includes('-auto-approve=false')) return undefined;
 *     return rewrite({ ...p.arguments, command: `${command} -auto-approve=false` }, 'never auto-approve');
 *   },
 * });
 * ```
 */
export function rewrite(args: Record<string, unknown>, reason?: string): PreToolAllow {
  return { ...defined({ action: 'allow' as const }, { reason }), arguments: args };
}

/**
 * Pre-tool or permission-request `deny`: the tool call does not run; `reason`
 * is shown to the model (on a permission request, the person is not asked).
 * A later hook cannot relax it, and the waterfall stops here.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   preTool: (p) => (String(p.arguments.command).includes('rm -rf /') ? deny('recursive delete of /') : undefined),
 *   permissionRequest: (p) => (p.toolName === 'write_file' ? deny('no writes from this agent') : undefined),
 * });
 * ```
 */
export function deny(reason: string): Extract<PreToolDecision, { action: 'deny' }> {
  return { action: 'deny', reason };
}

/**
 * Pre-tool `ask`: let the person decide (without a prompter the host denies).
 * On a permission request `ask` is the default: the person is asked as usual
 * (the same as returning nothing).
 *
 * @example
 * ```ts
 * export default defineHook({
 *   preTool: (p) => (/\bgit push\b/.test(String(p.arguments.command)) ? ask('pushes to a remote') : undefined),
 * });
 * ```
 */
export function ask(reason?: string): Extract<PreToolDecision, { action: 'ask' }> {
  return defined({ action: 'ask' as const }, { reason });
}

/**
 * `block` for prompt-submit (the prompt is rejected), post-tool (the result
 * is withheld from the model) or pre-compact (the agent does not compact,
 * where it lets a hook block). `reason` must be non-empty.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   promptSubmit: (p) => (p.content.includes('AKIA') ? block('prompt contains an AWS key id') : undefined),
 *   preCompact: (p) => (p.trigger === 'auto' ? block('summarise by hand with /compact') : undefined),
 * });
 * ```
 */
export function block(reason: string): Extract<PromptDecision, { action: 'block' }> & Extract<PostToolDecision, { action: 'block' }> {
  return { action: 'block', reason };
}

/**
 * Post-tool `accept`: pass the result on, optionally replacing its `content`
 * and/or appending `additionalContext` after the step's tool results.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   postTool: (p) => accept({ content: p.result.content.replaceAll(/ghp_\w+/g, '[REDACTED:github]') }),
 * });
 * ```
 */
export function accept(opts?: { content?: string; additionalContext?: string }): PostToolAccept {
  return defined({ action: 'accept' as const }, opts);
}

/**
 * Turn-continuation (and subagent-stop) `stop`: let the turn (the subagent) end (the default).
 *
 * @example
 * ```ts
 * export default defineHook({
 *   turnContinuation: (p) => (p.continuations >= 3 ? stop() : undefined),
 * });
 * ```
 */
export function stop(): Extract<ContinuationDecision, { action: 'stop' }> {
  return { action: 'stop' };
}

/**
 * Turn-continuation `continue`: keep the turn going; `reason` is recorded as
 * a steering message for the model in the same turn. On subagent-stop: keep
 * the subagent working, `reason` its next instruction. Also exported as `continue`.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   turnContinuation: (p, ctx) =>
 *     ctx.state.get('testsFailed') === 'yes' && p.continuations < 3 ? continueTurn('tests still fail; fix them') : undefined,
 * });
 * ```
 */
export function continueTurn(reason?: string): ContinueDecision {
  return defined({ action: 'continue' as const }, { reason });
}

/** The `action`s a seam's decision takes (none for the notify seams: session-start, subagent-start, notification, session-end). */
type ActionOf<S extends SeamId> = SeamTypes[S]['decision'] extends infer D ? (D extends { action: infer A extends string } ? A : never) : never;

/**
 * The helper that makes each action of each seam's decision, keyed by every
 * seam and, per seam, every action its decision takes: a new seam, or a new
 * action of a seam, does not compile until it has a helper here (and the
 * helper's result must be that seam's decision with that action); typed,
 * not `satisfies`, so that only this table fails, not its readers. The
 * session-start decision has no action (`{ additionalContext }` is written
 * as it is). Tests make every helper's decision and check it against the
 * host's schema of the seam.
 */
export const DECISION_HELPERS: { readonly [S in SeamId]: HelpersOf<S> } = {
  'agent/session-start': {},
  'agent/prompt-submit': { allow, block },
  'tools/pre-execute': { allow, deny, ask },
  'tools/post-execute': { accept, block },
  'agent/turn-continuation': { stop, continue: continueTurn },
  'tools/permission-request': { ask, allow, deny },
  'agent/subagent-start': {},
  'agent/subagent-stop': { stop, continue: continueTurn },
  'agent/notification': {},
  'agent/pre-compact': { allow, block },
  'agent/session-end': {},
};

/** One seam's row: a helper per action, none for a seam whose decision has no action. */
type HelpersOf<S extends SeamId> = [ActionOf<S>] extends [never]
  ? Readonly<Record<string, never>>
  : { readonly [A in ActionOf<S>]: (...args: never[]) => Extract<SeamTypes[S]['decision'], { action: A }> };
