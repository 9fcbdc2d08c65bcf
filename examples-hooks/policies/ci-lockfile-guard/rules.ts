/**
 * ci-lockfile-guard's pure policy: edits to CI configuration and to lockfiles
 * — written, edited, deleted or moved through any tool (write/edit tools,
 * `apply_patch`, shell redirects, `sed -i`, `rm`, `mv`: `shared/tool-targets.ts`).
 * A lockfile is the package manager's to write: `npm install` changing
 * `package-lock.json` is no edit this policy sees. Reasons start
 * `ci-lockfile-guard: <rule>:`.
 */
import { oneOf, stringList } from '../shared/config.ts';
import { compileGlob, globMatches, resolveTarget, type PathGlob } from '../shared/globs.ts';
import { callTargets } from '../shared/tool-targets.ts';

export const RULES = ['ci', 'lockfile', 'unreadable', 'config-error'] as const;
type Action = 'deny' | 'ask' | 'allow';

/** The config as the host validated it (defaults filled in): `host/catalog/ci-lockfile-guard.ts`. */
export interface GuardConfig {
  readonly ci: Action;
  readonly lockfiles: Action;
  readonly ciPaths: readonly PathGlob[];
  readonly lockfilePaths: readonly PathGlob[];
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly reason: string };

function globs(sources: readonly string[]): PathGlob[] {
  return sources.map(compileGlob).filter((glob): glob is PathGlob => glob !== undefined);
}

export function parseConfig(value: unknown): GuardConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const ci = oneOf(config.ci, ['deny', 'ask', 'allow'] as const);
  const lockfiles = oneOf(config.lockfiles, ['deny', 'ask', 'allow'] as const);
  const ciPaths = stringList(config.ciPaths);
  const lockfilePaths = stringList(config.lockfilePaths);
  if (ci === undefined || lockfiles === undefined) return { error: 'ci, lockfiles: expected deny, ask or allow' };
  if (ciPaths === undefined || lockfilePaths === undefined) return { error: 'ciPaths, lockfilePaths: expected arrays of globs' };
  return { ci, lockfiles, ciPaths: globs(ciPaths), lockfilePaths: globs(lockfilePaths) };
}

const VERB = { write: 'writes', delete: 'deletes', move: 'moves' } as const;

/** Judges one pre-tool call: the most restrictive of the paths it changes decides (deny before ask). */
export function judgeCall(toolName: string, args: Record<string, unknown>, cwd: string, config: GuardConfig): Verdict {
  const { targets, unreadable } = callTargets(toolName, args);
  let asked: Verdict | undefined;
  for (const target of targets) {
    const resolved = resolveTarget(target.path, cwd);
    // A folder deleted recursively is an edit of the CI configuration under it (`rm -rf .github`),
    // not of every lockfile it might hold somewhere (`rm -rf build` edits no lockfile).
    const reach = target.reach === 'recursive' ? 'ancestor' : target.reach;
    for (const [rule, action, list, what] of [
      ['ci', config.ci, config.ciPaths, 'CI configuration'],
      ['lockfile', config.lockfiles, config.lockfilePaths, 'a lockfile'],
    ] as const) {
      if (action === 'allow') continue;
      const glob = list.find((g) => globMatches(g, resolved, reach));
      if (glob === undefined) continue;
      const verdict: Verdict = { action, reason: `ci-lockfile-guard: ${rule}: ${toolName} ${VERB[target.op]} ${JSON.stringify(target.path)}, ${what} (${JSON.stringify(glob.source)}, via ${target.via})` };
      if (action === 'deny') return verdict;
      asked ??= verdict;
    }
  }
  if (unreadable) return { action: 'deny', reason: `ci-lockfile-guard: unreadable: ${toolName}: the command nests scripts too deeply to check which paths it changes` };
  return asked ?? { action: 'allow' };
}
