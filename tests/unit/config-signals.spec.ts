/**
 * Signals in the layered config: a lower layer sees (and may grant) the
 * signals a higher one declared, cannot redeclare one, and cannot grant a
 * signal a higher layer's `defaults.grant` leaves out. Real files in a temp
 * folder; HOME and HOOKBOX_ORG_CONFIG point into it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLayeredConfig } from '../../host/config/index.ts';
import { intersectCapabilities } from '../../host/config/capabilities.ts';

let root: string;
let org: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-signals-config-'));
  for (const dir of ['org', 'home', 'project']) mkdirSync(path.join(root, dir), { recursive: true });
  org = path.join(root, 'org', 'config.json');
  project = path.join(root, 'project', 'hookbox.config.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, config: unknown) => writeFileSync(file, JSON.stringify(config));
const load = () => loadLayeredConfig({ project, env: { HOME: path.join(root, 'home'), HOOKBOX_ORG_CONFIG: org } });

describe('signals across layers', () => {
  it('a project hook may be granted a signal the organisation declared; its folder is the declaring file\'s', () => {
    write(org, { hooks: [], signals: { lint: { argv: ['eslint', '.'], cwd: 'tools' } } });
    write(project, { hooks: [{ name: 'check', wasm: 'check.wasm', grant: { signals: ['lint'] } }], signals: { test: { argv: ['npm', 'test'] } } });
    const [hook] = load().hooks;
    expect(hook?.grant.signals).toEqual(['lint']);
    expect(hook?.signals?.lint).toEqual({ name: 'lint', argv: ['eslint', '.'], cwd: path.join(root, 'org', 'tools'), timeoutMs: 30_000, maxOutputBytes: 65_536, declaredAt: `${org}: signals.lint` });
    expect(hook?.signals?.test?.cwd).toBe(path.join(root, 'project'));
  });

  it('a lower layer cannot redeclare a higher layer\'s signal', () => {
    write(org, { hooks: [], signals: { lint: { argv: ['eslint', '.'] } } });
    write(project, { hooks: [], signals: { lint: { argv: ['sh', '-c', 'exit 0'] } } });
    expect(load).toThrow(`${project}: signals.lint: already declared by ${org}: signals.lint; a lower layer cannot redeclare a signal (give it another name)`);
  });

  it('a lower layer cannot grant a signal the higher layer\'s defaults.grant leaves out', () => {
    write(org, { hooks: [], signals: { lint: { argv: ['eslint', '.'] }, deploy: { argv: ['./deploy'] } }, defaults: { grant: { signals: ['lint'] } } });
    write(project, { hooks: [{ name: 'check', wasm: 'check.wasm', grant: { signals: ['lint', 'deploy'] } }] });
    expect(load).toThrow(`${project}: hooks[0].grant.signals: "deploy" not in "lint", wider than the organisation layer allows (${org}: defaults.grant.signals)`);
    write(project, { hooks: [{ name: 'check', wasm: 'check.wasm', grant: { signals: ['lint'] } }] });
    expect(load().hooks[0]?.grant.signals).toEqual(['lint']);
  });

  it('a catalog policy whose config names a signal its entry does not grant is refused, naming the entry', () => {
    write(org, { hooks: [] });
    write(project, { hooks: [{ name: 'check', policy: 'post-edit-check', config: { signal: 'lint' } }], signals: { lint: { argv: ['eslint', '.'] } } });
    expect(load).toThrow(`${project}: hooks[0].config.signal: the "post-edit-check" policy reads signal "lint", which the entry does not grant (add "grant": {"signals": ["lint"]} to it)`);
    write(project, { hooks: [{ name: 'check', policy: 'post-edit-check', config: { signal: 'lint' }, grant: { signals: ['lint'] } }], signals: { lint: { argv: ['eslint', '.'] } } });
    expect(load().hooks[0]?.grant.signals).toEqual(['lint']);
  });

  it('a manifest gets the granted signals it names, or every granted one for "*"', () => {
    const grant = { signals: ['lint', 'test'] };
    expect(intersectCapabilities({ signals: ['lint'] }, grant).signals).toEqual(['lint']);
    expect(intersectCapabilities({ signals: ['*'] }, grant).signals).toEqual(['lint', 'test']);
    expect(intersectCapabilities({}, grant).signals).toBeUndefined();
    expect(intersectCapabilities(undefined, grant).signals).toEqual(['lint', 'test']);
  });
});
