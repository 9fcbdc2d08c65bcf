import { parse } from 'smol-toml';
import type { AgentSetup } from '../agent-bridge.ts';
import { handlerPositions, isHookboxCommand } from '../hook-groups.ts';
import type { ManagedSystemSetup, SystemOriginal } from '../system-setup.ts';

/**
 * Codex's managed requirements, `/etc/codex/requirements.toml` (the path in
 * its binary, 0.169.0; on macOS the MDM profile is the platform's way in
 * beside it): constraints no user, project or session config can loosen,
 * with managed hooks inline (`[[hooks.<Event>]]`, the layout of
 * `hooks.json`) and `allow_managed_hooks_only`. The file is TOML the
 * operator may comment, so hookbox's part is two marked blocks on the text —
 * its top-level key first (TOML puts top-level keys before any table), its
 * hook tables last — and taking them out gives back the operator's bytes.
 */
const HEAD_BEGIN = '# hookbox:system:head begin — written by `hookbox setup --system`; `hookbox setup --system --remove` takes it out';
const HEAD_END = '# hookbox:system:head end';
const TAIL_BEGIN = '# hookbox:system:hooks begin — written by `hookbox setup --system`; `hookbox setup --system --remove` takes it out';
const TAIL_END = '# hookbox:system:hooks end';

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'];

/** The text without one marked block (the block's lines and the one separating newline setup added). */
function without(text: string, begin: string, end: string): string {
  const start = text.indexOf(begin);
  if (start < 0) return text;
  const stop = text.indexOf(end, start);
  if (stop < 0) throw new Error(`"${begin.slice(0, 30)}…" has no end marker "${end}"; fix the file by hand`);
  let after = stop + end.length;
  if (text[after] === '\n') after += 1;
  let before = start;
  // The tail block was joined with one newline of its own.
  if (begin === TAIL_BEGIN && text[before - 1] === '\n' && text[before - 2] === '\n') before -= 1;
  return text.slice(0, before) + text.slice(after);
}

function strip(text: string): string {
  return without(without(text, HEAD_BEGIN, HEAD_END), TAIL_BEGIN, TAIL_END);
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

function render(hooks: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of groups as { matcher?: string; hooks: Record<string, unknown>[] }[]) {
      lines.push(`[[hooks.${event}]]`);
      if (group.matcher !== undefined) lines.push(`matcher = ${tomlString(group.matcher)}`);
      for (const handler of group.hooks) {
        lines.push(`[[hooks.${event}.hooks]]`);
        for (const [key, value] of Object.entries(handler)) lines.push(`${key} = ${typeof value === 'string' ? tomlString(value) : String(value)}`);
      }
    }
  }
  return lines.join('\n');
}

function parseToml(text: string, what: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${what} is not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
}

export function codexSystem(own: Pick<AgentSetup, 'apply'>): ManagedSystemSetup {
  return {
    kind: 'managed',
    file: (platform) => (platform === 'linux' || platform === 'darwin' ? '/etc/codex/requirements.toml' : undefined),
    apply(text, command, options) {
      const base = strip(text ?? '');
      parseToml(base, 'the file');
      const hooks = own.apply({}, { kind: 'command', command }, options.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: options.answerTimeoutMs }).settings.hooks as Record<string, unknown>;
      const head = options.lock ? `${HEAD_BEGIN}\nallow_managed_hooks_only = true\n${HEAD_END}\n` : '';
      // `[features] hooks = true` as a requirement: a user's or project's `[features] hooks = false` (measured: it stops managed hooks too) cannot be chosen.
      const tail = `${TAIL_BEGIN}\n${options.lock ? '[features]\nhooks = true\n' : ''}${render(hooks)}\n${TAIL_END}\n`;
      const joined = base === '' ? '' : base.endsWith('\n') ? `${base}\n` : `${base}\n\n`;
      const next = `${head}${joined}${tail}`;
      // An operator's own `allow_managed_hooks_only` or `[hooks.<Event>]` written another way would clash: say so, write nothing.
      parseToml(next, 'the file with hookbox\'s entries (a key or table of the same name is already there)');
      return next;
    },
    remove(text: string, original: SystemOriginal) {
      const stripped = strip(text);
      if (original?.existed === true && stripped.trimEnd() === original.text.trimEnd()) return original.text;
      if (original?.existed !== true && stripped.trim() === '') return undefined;
      return stripped;
    },
    inspect(text) {
      const value = parseToml(text, 'the file');
      const found = handlerPositions(value).filter((position) => isHookboxCommand(position.handler.command, 'codex'));
      return {
        missing: EVENTS.filter((event) => !found.some((position) => position.event === event)),
        commands: [...new Set(found.map((position) => String(position.handler.command)))],
        locked: value.allow_managed_hooks_only === true && (value.features as Record<string, unknown> | undefined)?.hooks === true,
      };
    },
    lockKeys: 'allow_managed_hooks_only = true, [features] hooks = true',
    lockRefuses: "user, project and session hooks (a developer's own `hooks.json`, a project's `.codex/hooks.json` with hookbox's project entries) and plugins' hooks; only managed hooks run",
    lowerScope: {
      locked: 'no hook of its own, and a user\'s or project\'s `[features] hooks = false` is overruled (measured with 0.169.0: curl | sh still denied)',
      unlocked: "a developer's and a project's own hooks run beside hookbox's, and a user's `[features] hooks = false` switches every hook off, the managed ones too (measured with 0.169.0: curl | sh ran)",
    },
  };
}
