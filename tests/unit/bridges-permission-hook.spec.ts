import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { permissionRulesHook } from '../../host/bridges/permission-hook.ts';
import { PermissionRulesSchema, type PermissionRules } from '../../host/bridges/permission-schema.ts';
import { ConfigError } from '../../host/errors.ts';
import type { SeamCall } from '../../host/events/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
let dir: string;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-permission-hook-');
  dir = realpathSync(workspace.dir);
});
afterEach(() => workspace.dispose());

const WHERE = 'hookbox.config.json: hooks[0]';

function preTool(toolName: string, args: Record<string, unknown>, cwd = dir): SeamCall<'tools/pre-execute'> {
  return {
    seam: 'tools/pre-execute',
    payload: { toolCallId: 'call-1', toolName, arguments: args },
    next: { action: 'allow' },
    session: { id: 'session-1', turn: 1, step: 1, cwd },
  };
}

describe('permissionRulesHook', () => {
  it('is a native, fail-closed pre-tool hook with nothing to reload or close', async () => {
    const hook = permissionRulesHook('claude-permissions', { allow: ['Bash(ls)'], root: dir }, WHERE);
    expect(hook).toStrictEqual({
      name: 'claude-permissions',
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      sandbox: 'native',
      seams: ['tools/pre-execute'],
      exports: ['tools/pre-execute'],
      quarantined: false,
      failPolicy: 'closed',
      reload: expect.any(Function),
      close: expect.any(Function),
      invoke: expect.any(Function),
    });
    await expect(hook.reload()).resolves.toBeUndefined();
    await expect(hook.close()).resolves.toBeUndefined();
  });

  it('its digest names the rules: the same rules give the same digest, other rules or another root another', () => {
    const digest = (rules: PermissionRules): string | undefined => permissionRulesHook('p', rules, WHERE).digest;
    expect(digest({ deny: ['Bash(rm:*)'], root: dir })).toBe(digest({ deny: ['Bash(rm:*)'], root: dir }));
    expect(digest({ deny: ['Bash(rm:*)'], root: dir })).not.toBe(digest({ deny: ['Bash(rm *)'], root: dir }));
    expect(digest({ deny: ['Bash(rm:*)'], root: dir })).not.toBe(digest({ ask: ['Bash(rm:*)'], root: dir }));
    expect(digest({ deny: ['Bash(rm:*)'], root: dir })).not.toBe(digest({ deny: ['Bash(rm:*)'], root: join(dir, 'x') }));
  });

  it('refuses a rule it cannot enforce, naming the config entry, the list index and the reason', () => {
    const build = () => permissionRulesHook('p', { deny: ['Bash(rm:*)'], ask: ['Read(./a)', 'WebFetch(domain:example.com)'], root: dir }, WHERE);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(
      new ConfigError(`${WHERE}.permissions.ask[1]: "WebFetch(domain:example.com)" cannot be enforced: hookbox has no WebFetch tool to apply "domain:example.com" to`),
    );
    expect(() => permissionRulesHook('p', { allow: ['Bash(ls'], root: dir }, WHERE)).toThrow(
      new ConfigError(`${WHERE}.permissions.allow[0]: "Bash(ls" cannot be enforced: not a permission rule ("Tool" or "Tool(specifier)")`),
    );
  });

  it('the first matching deny wins over any ask or allow, whatever order the lists are written in', async () => {
    const hook = permissionRulesHook('p', { allow: ['Bash'], ask: ['Bash(git *)'], deny: ['Bash(ls)', 'Bash(git push *)', 'Bash(git *)'], root: dir }, WHERE);
    expect(await hook.invoke(preTool('bash', { command: 'git push origin main' }))).toStrictEqual({
      type: 'decision',
      decision: { action: 'deny', reason: 'denied by the imported Claude Code rule permissions.deny[1] "Bash(git push *)"' },
    });
  });

  it('else the first matching ask, else the first matching allow', async () => {
    const hook = permissionRulesHook('p', { deny: ['Bash(rm:*)'], ask: ['Bash(npm publish)', 'Bash(git *)'], allow: ['Read', 'Bash(git status)'], root: dir }, WHERE);
    expect(await hook.invoke(preTool('bash', { command: 'git status' }))).toStrictEqual({
      type: 'decision',
      decision: { action: 'ask', reason: 'needs approval by the imported Claude Code rule permissions.ask[1] "Bash(git *)"' },
    });
    expect(await hook.invoke(preTool('read_file', { path: 'README.md' }))).toStrictEqual({
      type: 'decision',
      decision: { action: 'allow', reason: 'allowed by the imported Claude Code rule permissions.allow[0] "Read"' },
    });
  });

  it('no matching rule is no opinion', async () => {
    const hook = permissionRulesHook('p', { deny: ['Bash(rm:*)'], allow: ['Bash(ls)'], root: dir }, WHERE);
    expect(await hook.invoke(preTool('bash', { command: 'ls && cat x' }))).toStrictEqual({ type: 'no-opinion' });
    expect(await hook.invoke(preTool('write_file', { path: 'a', content: '' }))).toStrictEqual({ type: 'no-opinion' });
    expect(await permissionRulesHook('p', { root: dir }, WHERE).invoke(preTool('bash', { command: 'rm -rf /' }))).toStrictEqual({ type: 'no-opinion' });
  });

  it('path rules see the session cwd of each call and follow symlinks of existing files', async () => {
    mkdirSync(join(dir, 'app', 'secrets'), { recursive: true });
    writeFileSync(join(dir, 'app', 'secrets', 'key'), 'k');
    symlinkSync(join(dir, 'app', 'secrets', 'key'), join(dir, 'app', 'notes.txt'));
    const hook = permissionRulesHook('p', { deny: ['Read(./secrets)'], root: dir }, WHERE);
    const denied = { type: 'decision', decision: { action: 'deny', reason: 'denied by the imported Claude Code rule permissions.deny[0] "Read(./secrets)"' } };
    expect(await hook.invoke(preTool('read_file', { path: 'secrets/key' }, join(dir, 'app')))).toStrictEqual(denied);
    expect(await hook.invoke(preTool('read_file', { path: 'notes.txt' }, join(dir, 'app')))).toStrictEqual(denied);
    expect(await hook.invoke(preTool('read_file', { path: 'app/secrets/key' }, dir))).toStrictEqual({ type: 'no-opinion' });
  });

  it('has no opinion on any other seam, even on a tool call its rules match', async () => {
    const hook = permissionRulesHook('p', { deny: ['Bash(rm:*)'], root: dir }, WHERE);
    const post: SeamCall<'tools/post-execute'> = {
      seam: 'tools/post-execute',
      payload: { toolCallId: 'call-1', toolName: 'bash', arguments: { command: 'rm -rf build' }, result: { content: '', isError: false } },
      next: { action: 'accept' },
      session: { id: 'session-1', turn: 1, step: 1, cwd: dir },
    };
    expect(await hook.invoke(post)).toStrictEqual({ type: 'no-opinion' });
    const prompt: SeamCall<'agent/prompt-submit'> = {
      seam: 'agent/prompt-submit',
      payload: { content: 'rm -rf build', source: 'cli' },
      next: { action: 'allow' },
      session: { id: 'session-1', turn: 1, step: 0, cwd: dir },
    };
    expect(await hook.invoke(prompt)).toStrictEqual({ type: 'no-opinion' });
  });
});

describe('PermissionRulesSchema', () => {
  it('takes the three rule lists and a root, nothing else, no empty rule and no empty root', () => {
    expect(PermissionRulesSchema.parse({ deny: ['Bash'], ask: [], allow: ['Read'], root: '.' })).toStrictEqual({ deny: ['Bash'], ask: [], allow: ['Read'], root: '.' });
    expect(PermissionRulesSchema.safeParse({ root: '.' }).success).toBe(true);
    expect(PermissionRulesSchema.safeParse({ deny: [''], root: '.' }).success).toBe(false);
    expect(PermissionRulesSchema.safeParse({ ask: [''], root: '.' }).success).toBe(false);
    expect(PermissionRulesSchema.safeParse({ allow: [''], root: '.' }).success).toBe(false);
    expect(PermissionRulesSchema.safeParse({ allow: ['Bash'], root: '' }).success).toBe(false);
    expect(PermissionRulesSchema.safeParse({ allow: ['Bash'] }).success).toBe(false);
    expect(PermissionRulesSchema.safeParse({ allow: ['Bash'], root: '.', defaultMode: 'plan' }).success).toBe(false);
  });
});
