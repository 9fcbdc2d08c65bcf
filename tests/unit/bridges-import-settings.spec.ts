import { describe, expect, it } from 'vitest';
import { PERMISSIONS_HOOK_NAME, SettingsSchema, importEnv, importPermissions } from '../../host/bridges/import-settings.ts';

const ROOT = '/work/project';

describe('importPermissions', () => {
  it('a file without permissions gives no entry and refuses nothing', () => {
    expect(importPermissions({}, ROOT)).toStrictEqual({ refused: [] });
    expect(importPermissions({ env: { A: '1' } }, ROOT)).toStrictEqual({ refused: [] });
  });

  it('keeps every enforceable rule, list by list in file order, as one "claude-permissions" entry rooted at the project', () => {
    const settings = { permissions: { allow: ['Bash(npm test)', 'Read'], deny: ['Read(./.env)', 'Bash(rm:*)'], ask: ['Bash(git push:*)'] } };
    expect(importPermissions(settings, ROOT)).toStrictEqual({
      entry: {
        name: 'claude-permissions',
        permissions: { deny: ['Read(./.env)', 'Bash(rm:*)'], ask: ['Bash(git push:*)'], allow: ['Bash(npm test)', 'Read'], root: ROOT },
      },
      refused: [],
    });
    expect(PERMISSIONS_HOOK_NAME).toBe('claude-permissions');
  });

  it('leaves out a list with nothing enforceable in it', () => {
    expect(importPermissions({ permissions: { allow: ['Bash(ls)'], deny: [], ask: ['WebSearch(x)'] } }, ROOT)).toStrictEqual({
      entry: { name: 'claude-permissions', permissions: { allow: ['Bash(ls)'], root: ROOT } },
      refused: [{ at: 'permissions.ask[0]', what: 'ask rule "WebSearch(x)"', why: 'hookbox has no WebSearch tool to apply "x" to', weakens: true }],
    });
  });

  it('refuses each rule it cannot enforce with its place and reason; a refused deny or ask weakens the policy, a refused allow does not', () => {
    const settings = {
      permissions: {
        deny: ['Bash(rm:*)', 'WebFetch(domain:evil.example)'],
        ask: ['mcp__db__query(drop *)'],
        allow: ['Bash(', 'Read(./docs)'],
      },
    };
    expect(importPermissions(settings, ROOT)).toStrictEqual({
      entry: { name: 'claude-permissions', permissions: { deny: ['Bash(rm:*)'], allow: ['Read(./docs)'], root: ROOT } },
      refused: [
        { at: 'permissions.deny[1]', what: 'deny rule "WebFetch(domain:evil.example)"', why: 'hookbox has no WebFetch tool to apply "domain:evil.example" to', weakens: true },
        { at: 'permissions.ask[0]', what: 'ask rule "mcp__db__query(drop *)"', why: 'hookbox has no mcp__db__query tool to apply "drop *" to', weakens: true },
        { at: 'permissions.allow[0]', what: 'allow rule "Bash("', why: 'not a permission rule ("Tool" or "Tool(specifier)")', weakens: false },
      ],
    });
  });

  it('gives no entry when no rule can be enforced (the refusals still stand)', () => {
    expect(importPermissions({ permissions: { allow: ['WebFetch(domain:x)'] } }, ROOT)).toStrictEqual({
      refused: [{ at: 'permissions.allow[0]', what: 'allow rule "WebFetch(domain:x)"', why: 'hookbox has no WebFetch tool to apply "domain:x" to', weakens: false }],
    });
    expect(importPermissions({ permissions: {} }, ROOT)).toStrictEqual({ refused: [] });
  });

  it('lists the permission fields hookbox has no meaning for, with why, first', () => {
    const settings = { permissions: { defaultMode: 'acceptEdits', additionalDirectories: ['../lib'], disableBypassPermissionsMode: 'disable', allow: ['Bash(ls)'], sandbox: {} } };
    expect(importPermissions(settings, ROOT)).toStrictEqual({
      entry: { name: 'claude-permissions', permissions: { allow: ['Bash(ls)'], root: ROOT } },
      refused: [
        { at: 'permissions.defaultMode', what: '"defaultMode"', why: 'hookbox has no permission modes: tool calls run unless a hook denies or asks', weakens: false },
        { at: 'permissions.additionalDirectories', what: '"additionalDirectories"', why: "hookbox's tools are not confined to directories; use a deny rule or a hook", weakens: false },
        { at: 'permissions.disableBypassPermissionsMode', what: '"disableBypassPermissionsMode"', why: 'hookbox has no bypass mode to disable', weakens: false },
        { at: 'permissions.sandbox', what: '"sandbox"', why: 'not a permissions field hookbox reproduces', weakens: false },
      ],
    });
  });

  it('a field named like an object built-in ("constructor", "toString") is an unknown field, its reason text (the report crashed on a function)', () => {
    expect(importPermissions({ permissions: { constructor: 1, toString: 'x' } }, ROOT)).toStrictEqual({
      refused: [
        { at: 'permissions.constructor', what: '"constructor"', why: 'not a permissions field hookbox reproduces', weakens: false },
        { at: 'permissions.toString', what: '"toString"', why: 'not a permissions field hookbox reproduces', weakens: false },
      ],
    });
  });
});

describe('importEnv', () => {
  it('gives every variable as a string, numbers and booleans as a shell would see them', () => {
    expect(importEnv({ env: { NODE_ENV: 'test', PORT: 8080, RATIO: 0.5, DEBUG: true, QUIET: false, EMPTY: '' } })).toStrictEqual({
      NODE_ENV: 'test',
      PORT: '8080',
      RATIO: '0.5',
      DEBUG: 'true',
      QUIET: 'false',
      EMPTY: '',
    });
  });

  it('no env is no variables', () => {
    expect(importEnv({})).toStrictEqual({});
  });
});

describe('SettingsSchema', () => {
  it('reads permissions lists and env, and keeps other keys for the importer to report', () => {
    const settings = { permissions: { allow: ['Bash'], ask: [], deny: ['Read'], defaultMode: 'plan' }, env: { A: 'x', B: 1, C: true }, hooks: {}, model: 'm' };
    expect(SettingsSchema.parse(settings)).toStrictEqual(settings);
    expect(SettingsSchema.parse({})).toStrictEqual({});
  });

  it('refuses rules that are not strings and env values that are not strings, numbers or booleans', () => {
    for (const list of ['allow', 'ask', 'deny']) {
      expect([list, SettingsSchema.safeParse({ permissions: { [list]: [1] } }).success]).toStrictEqual([list, false]);
      expect([list, SettingsSchema.safeParse({ permissions: { [list]: 'Bash' } }).success]).toStrictEqual([list, false]);
    }
    expect(SettingsSchema.safeParse({ permissions: ['Bash'] }).success).toBe(false);
    expect(SettingsSchema.safeParse({ env: { A: null } }).success).toBe(false);
    expect(SettingsSchema.safeParse({ env: { A: { nested: 1 } } }).success).toBe(false);
    expect(SettingsSchema.safeParse({ env: ['A=1'] }).success).toBe(false);
  });
});
