/**
 * The catalog's one module: every policy's rules in one wasm
 * (`dist/catalog/policies.wasm`), so the package carries the ~1.4 MB engine
 * snapshot once, not once per policy, and a config naming several policies
 * compiles one module. Each `dist/catalog/<name>/hook.json` points here and
 * declares only its own seams.
 *
 * Which policy's rules run is the `policyName` config key — set by hookbox's
 * catalog resolver from the entry's `"policy"` (a name its schema checked),
 * never by a project's `config` (a policy entry's config is the policy's
 * typed JSON, in the `policy` key) nor by the agent.
 */
import { defineHook, type HookContext, type HookDefinition, type HookHandlers } from '../../pdk/index.ts';
import ciLockfileGuard from './ci-lockfile-guard/hook.ts';
import commandRules from './command-rules/hook.ts';
import contextInjection from './context-injection/hook.ts';
import destructiveCommands from './destructive-commands/hook.ts';
import fileLimits from './file-limits/hook.ts';
import gitGuards from './git-guards/hook.ts';
import mcpAllowlist from './mcp-allowlist/hook.ts';
import networkEgress from './network-egress/hook.ts';
import packageInstalls from './package-installs/hook.ts';
import permissionRequests from './permission-requests/hook.ts';
import postEditCheck from './post-edit-check/hook.ts';
import protectedPaths from './protected-paths/hook.ts';
import secrets from './secrets/hook.ts';
import testGate from './test-gate/hook.ts';
import turnBudget from './turn-budget/hook.ts';

/** Every policy this module holds, by the name `host/catalog/` gives it. */
const POLICIES: Readonly<Record<string, HookDefinition>> = {
  'protected-paths': protectedPaths,
  'command-rules': commandRules,
  'git-guards': gitGuards,
  secrets,
  'network-egress': networkEgress,
  'package-installs': packageInstalls,
  'ci-lockfile-guard': ciLockfileGuard,
  'context-injection': contextInjection,
  'mcp-allowlist': mcpAllowlist,
  'file-limits': fileLimits,
  'turn-budget': turnBudget,
  'destructive-commands': destructiveCommands,
  'post-edit-check': postEditCheck,
  'test-gate': testGate,
  'permission-requests': permissionRequests,
};

/**
 * The handlers of the policy the host named. A module loaded without a known
 * name (wired by hand, not through `"policy"`) throws: a fault under the
 * hook's fail policy, naming what is missing, rather than some policy's rules.
 */
function chosen(ctx: HookContext<unknown>): HookHandlers {
  const name = ctx.config.get('policyName');
  const policy = name === undefined ? undefined : Object.prototype.hasOwnProperty.call(POLICIES, name) ? POLICIES[name] : undefined;
  if (policy === undefined) {
    throw new Error(`catalog: config-error: ${name === undefined ? 'no "policyName" config key' : `no policy ${JSON.stringify(name.slice(0, 60))}`} in the catalog module: name it with "policy" in the operator config`);
  }
  return policy.handlers;
}

// One handler per seam, each forwarding to the chosen policy's (no opinion when it has none there).
export default defineHook({
  description: 'the built-in policy catalog: runs the rules of the policy its "policyName" config key names',
  config: { policyName: 'the catalog policy whose rules run, set by hookbox', policy: "that policy's config as JSON, validated by hookbox" },
  sessionStart: (payload, ctx) => chosen(ctx as HookContext<unknown>).sessionStart?.(payload, ctx),
  promptSubmit: (payload, ctx) => chosen(ctx as HookContext<unknown>).promptSubmit?.(payload, ctx),
  preTool: (payload, ctx) => chosen(ctx as HookContext<unknown>).preTool?.(payload, ctx),
  postTool: (payload, ctx) => chosen(ctx as HookContext<unknown>).postTool?.(payload, ctx),
  permissionRequest: (payload, ctx) => chosen(ctx as HookContext<unknown>).permissionRequest?.(payload, ctx),
  subagentStart: (payload, ctx) => chosen(ctx as HookContext<unknown>).subagentStart?.(payload, ctx),
  turnContinuation: (payload, ctx) => chosen(ctx as HookContext<unknown>).turnContinuation?.(payload, ctx),
});
