import { homedir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import type { ListenerOutcome, SeamCall, SeamListener } from '../events/index.ts';
import type { DecisionOf, PayloadOf, SeamId, SessionInfo } from '../seams/index.ts';
import { type GuardRoots, ProtectedSet } from './protected-set.ts';
import { shellTouch } from './shell-touches.ts';
import { ProtectedSnapshot } from './tamper-check.ts';

/** The name self-protection's decisions carry in the session log and the transcript. */
export const SELF_PROTECTION_HOOK = 'hookbox/self-protection';

/** What the organisation or user layer says of self-protection (`selfProtection` in their config). */
export interface SelfProtectionSettings {
  /** `false` turns it off (never from the project layer). */
  readonly enabled: boolean;
  /** Globs of protected paths the agent may change all the same (absolute, or `~/…`). */
  readonly allowPaths: readonly string[];
}

export interface SelfProtectionOptions extends Partial<GuardRoots> {
  readonly configFiles: readonly string[];
  readonly settings?: SelfProtectionSettings;
}

/** Tools whose names say they only read or look (unmapped agent tools: `Grep`, `Glob`, `search_files`…). */
const READING_TOOL = /^(read|view|grep|glob|search|find|list|ls|cat|fetch|web)/i;
/** …unless the name also says it changes something (`findAndReplace`, `list_and_delete`, `search_replace`). */
const CHANGING_WORD = /write|edit|replace|delete|remove|move|rename|create|patch|put|save|set|append|truncate|copy|link|chmod/i;
/** Snapshots kept for tool calls still running; the oldest is dropped past this (a call whose post-tool event never comes). */
const MAX_RUNNING = 512;

/**
 * hookbox's self-protection: a native hook that runs before every operator
 * hook, in every transport (`run`, `acp`, `serve` and its clients, the SDK
 * adapters). Before a tool runs, a call that would create, change, move,
 * link or delete an agent's hook settings, hookbox's config or `.hookbox/`
 * — through a write or edit tool, a patch, or a shell command — is denied
 * with the reason. After it ran, the protected paths are compared with how
 * they were before it; whatever changed anyway (a name only the shell
 * knew) is put back and the result is withheld with the reason.
 */
export function selfProtectionHook(options: SelfProtectionOptions): SeamListener {
  const roots = (session: SessionInfo): GuardRoots => ({
    project: options.project ?? session.cwd,
    home: options.home ?? homedir(),
    configFiles: options.configFiles,
  });
  const home = options.home ?? homedir();
  const allowed = (options.settings?.allowPaths ?? []).map((glob) => picomatch(glob.startsWith('~/') ? path.join(home, glob.slice(2)) : glob, { dot: true }));
  const isAllowed = (file: string): boolean => allowed.some((matches) => matches(file));
  const running = new Map<string, { readonly snapshot: ProtectedSnapshot; readonly set: ProtectedSet }>();
  // One set per session folder: the paths depend only on it and on the roots, fixed for this listener's life.
  const sets = new Map<string, ProtectedSet>();
  const setFor = (session: SessionInfo): ProtectedSet => {
    let set = sets.get(session.cwd);
    if (set === undefined) {
      if (sets.size >= MAX_RUNNING) sets.clear();
      set = new ProtectedSet(roots(session), session.cwd);
      sets.set(session.cwd, set);
    }
    return set;
  };

  return {
    name: SELF_PROTECTION_HOOK,
    sandbox: 'native',
    quiet: true,
    seams: ['tools/pre-execute', 'tools/post-execute'],
    failPolicy: 'closed',
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      const set = setFor(call.session);
      const key = `${call.session.id}\u0000${(call.payload as { toolCallId: string }).toolCallId}`;
      if (call.seam === 'tools/pre-execute') {
        const payload = call.payload as PayloadOf<'tools/pre-execute'>;
        const why = changeOf(payload.toolName, payload.arguments, call.session.cwd, home, set);
        if (why !== undefined && !isAllowed(why.path)) {
          return { type: 'decision', decision: { action: 'deny', reason: denyReason(payload.toolName, why.how) } as DecisionOf<S> };
        }
        if (running.size >= MAX_RUNNING) running.delete(running.keys().next().value!);
        running.set(key, { snapshot: new ProtectedSnapshot(set.paths), set });
        return { type: 'no-opinion' };
      }
      if (call.seam !== 'tools/post-execute') return { type: 'no-opinion' };
      const before = running.get(key);
      running.delete(key);
      if (before === undefined) return { type: 'no-opinion' };
      const changed = before.snapshot.changed(before.set.paths).filter((file) => !isAllowed(file));
      if (changed.length === 0) return { type: 'no-opinion' };
      const failed = before.snapshot.restore(changed);
      const put = failed.length === 0 ? 'hookbox put it back' : `hookbox could not put back ${failed.join(', ')}`;
      const reason = `hookbox self-protection: this tool call changed ${changed.join(', ')}, which keeps hookbox's hooks in force; ${put}. The agent may not change its hook settings, hookbox's config or .hookbox/.`;
      return { type: 'decision', decision: { action: 'block', reason } as DecisionOf<S> };
    },
  };
}

function denyReason(toolName: string, how: string): string {
  return `hookbox self-protection: ${toolName} denied because ${how}, which keeps hookbox's hooks in force. The agent may not change its hook settings, hookbox's config or .hookbox/; only the organisation or user hookbox config can allow it (selfProtection.allowPaths).`;
}

/** Why a tool call would change a protected path, with the path: `undefined` when it would not. */
export function changeOf(toolName: string, args: Readonly<Record<string, unknown>>, cwd: string, home: string, set: ProtectedSet): { readonly how: string; readonly path: string } | undefined {
  if (toolName === 'read_file' || toolName === 'list_dir') return undefined;
  if (toolName === 'bash') {
    if (typeof args.command !== 'string') return undefined;
    return shellTouch(args.command, cwd, home, set);
  }
  if (toolName === 'write_file') {
    const hit = typeof args.path === 'string' ? set.touch(path.resolve(cwd, args.path)) : undefined;
    return hit === undefined ? undefined : { how: `it writes ${hit.path}`, path: hit.path };
  }
  if (READING_TOOL.test(toolName) && !CHANGING_WORD.test(toolName)) return undefined;
  for (const value of stringValues(args, 2)) {
    if (!value.includes('/') && !value.startsWith('.')) continue;
    const hit = set.touch(path.resolve(cwd, value.startsWith('~/') ? path.join(home, value.slice(2)) : value));
    if (hit !== undefined) return { how: `its arguments name ${hit.path}`, path: hit.path };
  }
  return undefined;
}

function stringValues(value: unknown, depth: number): string[] {
  if (typeof value === 'string') return [value];
  if (depth === 0 || typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap((inner) => stringValues(inner, depth - 1));
}
