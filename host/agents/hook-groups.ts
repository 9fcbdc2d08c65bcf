import type { HandlerPosition, SetupChange, SetupEdit } from './agent-bridge.ts';

export type { HandlerPosition };

/**
 * The `hooks: {<Event>: [{matcher?, hooks: [handler, …]}, …]}` layout Claude
 * Code, Codex (`hooks.json`) and Gemini CLI (`settings.json`) share, edited
 * for `hookbox setup`: hookbox's handlers (recognised by `isOurs`) are
 * replaced or taken out; every other key, group, handler and their order
 * stay as they were. hookbox's group goes last in each event, so the user's
 * groups keep their positions (Codex keys trust by position).
 */
export interface HookGroupsLayout {
  /**
   * The events hookbox registers, with a tool matcher where wanted. A
   * `stripOnly` event gets hookbox's handlers taken out and none added (one
   * the chosen transport cannot serve). `extra`: fields added to hookbox's
   * handler on this event only (Claude Code's `onFailure`).
   */
  readonly events: readonly { readonly event: string; readonly matcher?: string; readonly stripOnly?: boolean; readonly extra?: Readonly<Record<string, unknown>> }[];
  /** Is this handler one of hookbox's? */
  isOurs(handler: unknown): boolean;
  /** One line for the setup report. */
  describe(handler: Record<string, unknown>): string;
  /** How an error names the hooks key (default `hooks`). */
  readonly hooksPath?: string;
}

type Group = { matcher?: unknown; hooks?: unknown } & Record<string, unknown>;

export function hooksObject(settings: Record<string, unknown>, hooksPath = 'hooks'): Record<string, unknown> {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new TypeError(`${hooksPath}: expected an object of event → matcher groups`);
  }
  return hooks as Record<string, unknown>;
}

/** Strips hookbox's handlers from one event's groups; drops groups left empty by it. */
function strip(layout: HookGroupsLayout, groups: unknown, event: string, changes: SetupChange[]): unknown[] {
  if (!Array.isArray(groups)) throw new TypeError(`${layout.hooksPath ?? 'hooks'}.${event}: expected an array of matcher groups`);
  const kept: unknown[] = [];
  groups.forEach((group: unknown, index) => {
    const handlers = (group as Group | null)?.hooks;
    if (!Array.isArray(handlers)) {
      kept.push(group);
      return;
    }
    const remaining = handlers.filter((handler) => !layout.isOurs(handler));
    if (remaining.length === handlers.length) {
      kept.push(group);
      return;
    }
    for (const handler of handlers.filter((h) => layout.isOurs(h))) {
      changes.push({ action: 'removed', where: `hooks.${event}[${index}]`, what: layout.describe(handler as Record<string, unknown>) });
    }
    if (remaining.length > 0) kept.push({ ...(group as Group), hooks: remaining });
  });
  return kept;
}

/** Adds (or replaces) hookbox's handler as the last group of each registered event. Idempotent. */
export function applyHookGroups(layout: HookGroupsLayout, settings: Record<string, unknown>, handler: Record<string, unknown>): SetupEdit {
  const next = structuredClone(settings);
  const hooks = { ...hooksObject(next, layout.hooksPath) };
  const changes: SetupChange[] = [];
  for (const { event, matcher, stripOnly, extra } of layout.events) {
    if (stripOnly === true) {
      if (hooks[event] === undefined) continue;
      const groups = strip(layout, hooks[event], event, changes);
      if (groups.length === 0) delete hooks[event];
      else hooks[event] = groups;
      continue;
    }
    const removed: SetupChange[] = [];
    const previous = JSON.stringify(hooks[event] ?? null);
    const groups = strip(layout, hooks[event] ?? [], event, removed);
    groups.push({ ...(matcher !== undefined && { matcher }), hooks: [{ ...handler, ...extra }] });
    hooks[event] = groups;
    const where = `hooks.${event}[${groups.length - 1}]`;
    const action = removed.length === 0 ? 'added' : JSON.stringify(groups) === previous ? 'unchanged' : 'replaced';
    changes.push({ action, where, what: layout.describe(handler) });
  }
  next.hooks = hooks;
  return { settings: next, changes };
}

/** Takes out exactly hookbox's handlers (and groups and events left empty by that). */
export function removeHookGroups(layout: HookGroupsLayout, settings: Record<string, unknown>): SetupEdit {
  const next = structuredClone(settings);
  if (next.hooks === undefined) return { settings: next, changes: [] };
  const hooks = { ...hooksObject(next, layout.hooksPath) };
  const changes: SetupChange[] = [];
  for (const event of Object.keys(hooks)) {
    const before = changes.length;
    const groups = strip(layout, hooks[event], event, changes);
    if (changes.length === before) continue;
    if (groups.length === 0) delete hooks[event];
    else hooks[event] = groups;
  }
  if (Object.keys(hooks).length === 0) delete next.hooks;
  else next.hooks = hooks;
  return { settings: next, changes };
}


/** Every handler of the settings, in file order. */
export function handlerPositions(settings: Record<string, unknown>): HandlerPosition[] {
  const positions: HandlerPosition[] = [];
  const hooks = hooksObject(settings);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      const handlers = (group as Group | null)?.hooks;
      if (!Array.isArray(handlers)) return;
      const matcher = typeof (group as Group).matcher === 'string' ? ((group as Group).matcher as string) : undefined;
      handlers.forEach((handler: unknown, index) => {
        if (typeof handler === 'object' && handler !== null) positions.push({ event, group: groupIndex, index, matcher, handler: handler as Record<string, unknown> });
      });
    });
  }
  return positions;
}

/**
 * Is this command line one `hookbox setup` wrote for `agent`, however it was
 * quoted: `… hookbox-hook.cjs <agent> …` (the plain client; `.sh`, or the native
 * `…/native/<platform>-<arch>/hookbox-hook`, likewise) or
 * `… hookbox[.mjs] hook <agent> …` (the CLI)?
 */
export function isHookboxCommand(command: unknown, agent: string): boolean {
  if (typeof command !== 'string') return false;
  const words = command.split(/\s+/).map((word) => word.replace(/^['"]|['"]$/g, ''));
  return words.some(
    (word, i) => (/(^|\/)(hookbox-hook\.(cjs|sh)|native\/[\w-]+\/hookbox-hook)$/.test(word) && words[i + 1] === agent) || (/(^|\/)hookbox(\.mjs)?$/.test(word) && words[i + 1] === 'hook' && words[i + 2] === agent),
  );
}
