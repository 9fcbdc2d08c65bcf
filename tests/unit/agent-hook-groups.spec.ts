/**
 * host/agents/hook-groups.ts: the `hooks: {<Event>: [{matcher?, hooks: [...]}]}`
 * layout Claude Code, Codex and Gemini CLI share, as `hookbox setup` edits it —
 * hookbox's handlers replaced or taken out, every group, handler and key of the
 * user's kept in place, malformed settings refused with the key named — and
 * how a command line is recognised as one setup wrote.
 */
import { describe, expect, it } from 'vitest';
import { applyHookGroups, handlerPositions, isHookboxCommand, removeHookGroups, type HookGroupsLayout } from '../../host/agents/hook-groups.ts';

const OURS = '/opt/hookbox/hookbox-hook.cjs claude-code --deadline-ms 30000';
const layout: HookGroupsLayout = {
  events: [{ event: 'PreToolUse', matcher: '*', extra: { onFailure: 'block' } }, { event: 'Stop' }, { event: 'Notification', stripOnly: true }],
  isOurs: (handler) => isHookboxCommand((handler as { command?: unknown } | null)?.command, 'claude-code'),
  describe: (handler) => `command ${String(handler.command)}`,
};
const handler = { type: 'command', command: OURS };
const user = { type: 'command', command: './lint.sh' };

describe('applyHookGroups', () => {
  it('adds hookbox as the last group of each event, keeping every group of the user (empty, odd or null) in place', () => {
    const settings = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [user] }, { matcher: 'Edit', hooks: [] }, null, { matcher: 'Read' }],
        Notification: [{ hooks: [user, { type: 'command', command: 'hookbox hook claude-code' }] }],
        SessionEnd: [{ hooks: [user] }],
      },
    };
    expect(applyHookGroups(layout, settings, handler)).toStrictEqual({
      settings: {
        model: 'opus',
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [user] }, { matcher: 'Edit', hooks: [] }, null, { matcher: 'Read' }, { matcher: '*', hooks: [{ ...handler, onFailure: 'block' }] }],
          Notification: [{ hooks: [user] }],
          SessionEnd: [{ hooks: [user] }],
          Stop: [{ hooks: [handler] }],
        },
      },
      changes: [
        { action: 'added', where: 'hooks.PreToolUse[4]', what: `command ${OURS}` },
        { action: 'added', where: 'hooks.Stop[0]', what: `command ${OURS}` },
        { action: 'removed', where: 'hooks.Notification[0]', what: 'command hookbox hook claude-code' },
      ],
    });
  });

  it('a second run changes nothing; a changed handler is replaced, its old group dropped when left empty', () => {
    const once = applyHookGroups(layout, {}, handler).settings;
    expect(applyHookGroups(layout, once, handler)).toStrictEqual({
      settings: once,
      changes: [
        { action: 'unchanged', where: 'hooks.PreToolUse[0]', what: `command ${OURS}` },
        { action: 'unchanged', where: 'hooks.Stop[0]', what: `command ${OURS}` },
      ],
    });
    const newer = { type: 'command', command: 'npx hookbox hook claude-code' };
    expect(applyHookGroups(layout, { hooks: { Stop: [{ hooks: [handler, user] }, { hooks: [handler] }] } }, newer)).toStrictEqual({
      settings: {
        hooks: {
          Stop: [{ hooks: [user] }, { hooks: [newer] }],
          PreToolUse: [{ matcher: '*', hooks: [{ ...newer, onFailure: 'block' }] }],
        },
      },
      changes: [
        { action: 'added', where: 'hooks.PreToolUse[0]', what: 'command npx hookbox hook claude-code' },
        { action: 'replaced', where: 'hooks.Stop[1]', what: 'command npx hookbox hook claude-code' },
      ],
    });
  });

  it('a strip-only event whose groups are all hookbox’s is taken out', () => {
    const { settings } = applyHookGroups(layout, { hooks: { Notification: [{ hooks: [handler] }] } }, handler);
    expect(Object.keys(settings.hooks as object)).toStrictEqual(['PreToolUse', 'Stop']);
  });

  it('refuses hooks that are not an object, and an event that is not a list, naming the key', () => {
    for (const hooks of ['x', null, []]) {
      expect(() => applyHookGroups(layout, { hooks }, handler)).toThrow(new TypeError('hooks: expected an object of event → matcher groups'));
      expect(() => applyHookGroups({ ...layout, hooksPath: 'settings.json hooks' }, { hooks }, handler)).toThrow(
        new TypeError('settings.json hooks: expected an object of event → matcher groups'),
      );
    }
    expect(() => applyHookGroups(layout, { hooks: { Stop: { hooks: [] } } }, handler)).toThrow(new TypeError('hooks.Stop: expected an array of matcher groups'));
    expect(() => applyHookGroups({ ...layout, hooksPath: 'hooks.json hooks' }, { hooks: { Stop: 'x' } }, handler)).toThrow(
      new TypeError('hooks.json hooks.Stop: expected an array of matcher groups'),
    );
  });
});

describe('removeHookGroups', () => {
  it('takes out exactly hookbox’s handlers, and the groups and events left empty by that', () => {
    const settings = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [user, handler] }, { matcher: '*', hooks: [handler] }],
        Stop: [{ hooks: [handler] }],
        SessionEnd: [],
        PostToolUse: [{ matcher: 'Edit', hooks: [] }, { hooks: [user] }],
      },
    };
    expect(removeHookGroups(layout, settings)).toStrictEqual({
      settings: { model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [user] }], SessionEnd: [], PostToolUse: [{ matcher: 'Edit', hooks: [] }, { hooks: [user] }] } },
      changes: [
        { action: 'removed', where: 'hooks.PreToolUse[0]', what: `command ${OURS}` },
        { action: 'removed', where: 'hooks.PreToolUse[1]', what: `command ${OURS}` },
        { action: 'removed', where: 'hooks.Stop[0]', what: `command ${OURS}` },
      ],
    });
  });

  it('settings without hooks stay as they are; hooks left empty are taken out', () => {
    expect(removeHookGroups(layout, { model: 'opus' })).toStrictEqual({ settings: { model: 'opus' }, changes: [] });
    expect(removeHookGroups(layout, { model: 'opus', hooks: { Stop: [{ hooks: [handler] }] } })).toStrictEqual({
      settings: { model: 'opus' },
      changes: [{ action: 'removed', where: 'hooks.Stop[0]', what: `command ${OURS}` }],
    });
  });
});

describe('handlerPositions', () => {
  it('lists every handler object in file order with its group’s matcher, skipping what is not a group or handler', () => {
    const settings = {
      hooks: {
        PreToolUse: [null, { matcher: 'Bash', hooks: [user, null, 'x', handler] }, { matcher: 7, hooks: [user] }, { matcher: 'Edit', hooks: 'x' }],
        Stop: 'not a list',
        SessionEnd: [{ hooks: [handler] }],
      },
    };
    expect(handlerPositions(settings)).toStrictEqual([
      { event: 'PreToolUse', group: 1, index: 0, matcher: 'Bash', handler: user },
      { event: 'PreToolUse', group: 1, index: 3, matcher: 'Bash', handler },
      { event: 'PreToolUse', group: 2, index: 0, matcher: undefined, handler: user },
      { event: 'SessionEnd', group: 0, index: 0, matcher: undefined, handler },
    ]);
    expect(handlerPositions({})).toStrictEqual([]);
  });
});

describe('isHookboxCommand', () => {
  it.each([
    '/opt/hookbox/hookbox-hook.cjs claude-code --deadline-ms 30000',
    'hookbox-hook.cjs claude-code',
    'node "/opt/my tools/hookbox-hook.cjs" claude-code',
    "'/opt/x/hookbox-hook.sh' claude-code",
    'npx hookbox hook claude-code',
    'node  /opt/x/hookbox.mjs   hook "claude-code"',
    '/usr/local/bin/hookbox hook claude-code --deadline-ms 1',
  ])('%j is hookbox’s', (command) => {
    expect(isHookboxCommand(command, 'claude-code')).toBe(true);
  });

  it.each([
    '/opt/x/hookbox-hook.cjs codex',
    '/opt/x/hookbox-hook.cjsx claude-code',
    '/opt/x/myhookbox-hook.cjs claude-code',
    'hookbox-hook.js claude-code',
    'echo claude-code',
    'hookbox hook codex',
    'hookbox run claude-code',
    'echo hook claude-code',
    'hookboxd hook claude-code',
    '/opt/x/myhookbox hook claude-code',
    'hookbox.mjs.bak hook claude-code',
    './lint.sh',
  ])('%j is not', (command) => {
    expect(isHookboxCommand(command, 'claude-code')).toBe(false);
  });

  it('a command that is not a string is not', () => {
    expect(isHookboxCommand(['hookbox', 'hook', 'claude-code'], 'claude-code')).toBe(false);
  });
});
