/**
 * The layer bounds with all three layers present (organisation › user ›
 * project): what a higher layer set still binds two layers down, and the
 * user layer's own bounds bind the project, not only the organisation's.
 * Real files in a temp folder; HOME and HOOKBOX_ORG_CONFIG point into it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLayeredConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';

let root: string;
let org: string;
let user: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-bounds-'));
  for (const dir of ['org', 'home/.config/hookbox', 'project', 'shared', 'shared-evil', 'shared/inner']) mkdirSync(path.join(root, dir), { recursive: true });
  org = path.join(root, 'org', 'config.json');
  user = path.join(root, 'home', '.config', 'hookbox', 'config.json');
  project = path.join(root, 'project', 'hookbox.config.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, config: unknown): void {
  writeFileSync(file, JSON.stringify(config));
}

const load = () => loadLayeredConfig({ project, env: { HOME: path.join(root, 'home'), HOOKBOX_ORG_CONFIG: org } });

function refusal(): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('three layers: the organisation still binds the project through the user layer', () => {
  it('a project cannot redefine an organisation hook when a user layer with its own hooks sits between', () => {
    write(org, { hooks: [{ name: 'guard', wasm: 'guard.wasm' }] });
    write(user, { hooks: [{ name: 'mine', wasm: 'mine.wasm' }] });
    write(project, { hooks: [{ name: 'guard', wasm: 'allow-all.wasm' }] });
    expect(refusal()).toBe(
      `${project}: hooks[0].name: "guard" is the organisation layer's hook (${org}: hooks[0]); a lower layer cannot redefine, reorder or drop it (it runs first anyway: remove this entry)`,
    );
    // The user layer's hook too, and an unrelated name still loads in order.
    write(project, { hooks: [{ name: 'mine', wasm: 'x.wasm' }] });
    expect(refusal()).toContain(`"mine" is the user layer's hook (${user}: hooks[0])`);
    write(project, { hooks: [{ name: 'local', wasm: 'local.wasm' }] });
    expect(load().hooks.map((hook) => hook.name)).toEqual(['guard', 'mine', 'local']);
  });

  it('a project cannot make a hook fail open under the user layer\'s "closed", with or without an organisation failPolicy', () => {
    write(org, { hooks: [], defaults: { timeoutMs: 1000 } });
    write(user, { hooks: [], defaults: { failPolicy: 'closed' } });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', failPolicy: 'open' }] });
    expect(refusal()).toBe(
      `${project}: hooks[0].failPolicy: "open" weakens the user layer's "closed" (${user}: defaults.failPolicy); a lower layer cannot make a hook fail open`,
    );
    write(project, { hooks: [], defaults: { failPolicy: 'open' } });
    expect(refusal()).toContain(`${project}: defaults.failPolicy: "open" weakens the user layer's "closed" (${user}: defaults.failPolicy)`);
    // The organisation says "closed" too; the user layer restates it: still refused, now naming the user layer.
    write(org, { hooks: [], defaults: { failPolicy: 'closed' } });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', failPolicy: 'open' }] });
    expect(refusal()).toContain(`"open" weakens the user layer's "closed" (${user}: defaults.failPolicy)`);
    // Closed under closed is fine.
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', failPolicy: 'closed' }] });
    expect(load().hooks[0]?.failPolicy).toBe('closed');
  });
});

describe('grant paths are compared as paths, not as strings', () => {
  it('a sibling whose name starts with the bound ("shared-evil" under "shared") is outside it; a real child is inside', () => {
    write(org, { hooks: [], defaults: { grant: { allowedPaths: { '../shared': '/shared' } } } });
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', grant: { allowedPaths: { '../shared-evil': '/s' } } }] });
    expect(refusal()).toBe(
      `${project}: hooks[0].grant.allowedPaths: "${path.join(root, 'shared-evil')}" is outside "${path.join(root, 'shared')}", wider than the organisation layer allows (${org}: defaults.grant.allowedPaths)`,
    );
    write(project, { hooks: [], defaults: { grant: { allowedPaths: { '../shared-evil': '/s' } } } });
    expect(refusal()).toContain(`defaults.grant.allowedPaths: "${path.join(root, 'shared-evil')}" is outside`);
    write(project, { hooks: [{ name: 'a', wasm: 'a.wasm', grant: { allowedPaths: { '../shared/inner': '/s' } } }] });
    expect(load().hooks[0]?.grant.allowedPaths).toEqual({ [path.join(root, 'shared', 'inner')]: '/s' });
  });
});
