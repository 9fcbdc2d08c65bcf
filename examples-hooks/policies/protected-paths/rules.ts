/**
 * protected-paths' pure policy: denies a tool call that writes, edits,
 * deletes or moves a path matching one of the operator's globs, through any
 * tool (see `../shared/tool-targets.ts`). Reasons start with
 * `protected-paths: <rule>:` so `hookbox test` can count which rule decided.
 */
import { compileGlob, globMatches, resolveTarget, type PathGlob } from '../shared/globs.ts';
import { callTargets, type Target } from '../shared/tool-targets.ts';

/** The rules, as `hookbox policies protected-paths` lists them. */
export const RULES = ['write', 'delete', 'move', 'unreadable', 'config-error'] as const;
export type Rule = (typeof RULES)[number];

/** The policy's config, as the host validated it (`host/catalog/protected-paths.ts`). */
export interface ProtectedPathsConfig {
  readonly paths: readonly string[];
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny'; readonly rule: Rule; readonly reason: string };

/** The compiled globs of a config; a config of another shape is an error (the host checks it first). */
export function compileConfig(raw: string | undefined): PathGlob[] | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    return { error: 'the policy config is not JSON' };
  }
  const paths = (parsed as { paths?: unknown } | null)?.paths;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) return { error: 'paths: expected an array of globs' };
  const globs: PathGlob[] = [];
  for (const p of paths as string[]) {
    const glob = compileGlob(p);
    if (glob !== undefined) globs.push(glob);
  }
  return globs;
}

const RULE_OF: Record<Target['op'], Rule> = { write: 'write', delete: 'delete', move: 'move' };

/** Judges one pre-tool call. */
export function judgeCall(toolName: string, args: Record<string, unknown>, cwd: string, globs: readonly PathGlob[]): Verdict {
  const { targets, unreadable } = callTargets(toolName, args);
  for (const target of targets) {
    const resolved = resolveTarget(target.path, cwd);
    for (const glob of globs) {
      if (!globMatches(glob, resolved, target.reach)) continue;
      const rule = RULE_OF[target.op];
      const what = target.op === 'write' ? 'writes' : target.op === 'delete' ? 'deletes' : 'moves';
      return { action: 'deny', rule, reason: `protected-paths: ${rule}: ${toolName} ${what} ${JSON.stringify(target.path)}, protected by ${JSON.stringify(glob.source)} (via ${target.via})` };
    }
  }
  if (unreadable) return { action: 'deny', rule: 'unreadable', reason: `protected-paths: unreadable: ${toolName}: the command nests scripts too deeply to check which paths it changes` };
  return { action: 'allow' };
}
