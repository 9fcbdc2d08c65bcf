/**
 * Which configuration a server decides by: the project config's real path,
 * and a digest over every present layer's name, real path, length and bytes
 * (organisation, user, project), so a changed, added or moved layer changes
 * it; and the `/health` proof, an HMAC only the token's holder can give.
 * Real files in a temp folder; the expected digest is computed here from
 * the bytes.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalConfigPath, configIdentity, healthProof, proofHolds } from '../../host/serve/config-identity.ts';

let root: string;
let env: NodeJS.ProcessEnv;
let project: string;
let user: string;
let org: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-config-identity-')));
  project = path.join(root, 'project', 'hookbox.json');
  user = path.join(root, 'xdg', 'hookbox', 'config.json');
  org = path.join(root, 'org.json');
  mkdirSync(path.dirname(project), { recursive: true });
  mkdirSync(path.dirname(user), { recursive: true });
  writeFileSync(project, '{"hooks":[]}');
  env = { XDG_CONFIG_HOME: path.join(root, 'xdg'), HOME: root };
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The digest as documented: per present layer, `<layer>\0<real path>\0<length>\0` then its bytes. */
function digest(layers: readonly (readonly [string, string, string])[]): string {
  const hash = createHash('sha256');
  for (const [layer, file, bytes] of layers) hash.update(`${layer}\0${file}\0${Buffer.byteLength(bytes)}\0`).update(bytes);
  return `sha256:${hash.digest('hex')}`;
}

describe('canonicalConfigPath', () => {
  it('is the real path of a file (a link resolved), else the absolute path', () => {
    const link = path.join(root, 'link.json');
    symlinkSync(project, link);
    expect([canonicalConfigPath(link), canonicalConfigPath(path.join(root, 'missing.json')), canonicalConfigPath('rel/missing.json')]).toStrictEqual([
      project,
      path.join(root, 'missing.json'),
      path.resolve('rel/missing.json'),
    ]);
  });
});

describe('configIdentity', () => {
  it('the project layer alone: its real path, and its bytes in the digest', () => {
    const link = path.join(root, 'link.json');
    symlinkSync(project, link);
    expect(configIdentity(link, env)).toStrictEqual({ path: project, identity: digest([['project', project, '{"hooks":[]}']]) });
  });

  it('every present layer, organisation first; each one changes the digest', () => {
    writeFileSync(user, '{"user":1}');
    writeFileSync(org, 'é');
    const all = configIdentity(project, { ...env, HOOKBOX_ORG_CONFIG: org });
    expect(all).toStrictEqual({
      path: project,
      identity: digest([
        ['organisation', org, 'é'],
        ['user', user, '{"user":1}'],
        ['project', project, '{"hooks":[]}'],
      ]),
    });
    writeFileSync(user, '{"user":2}');
    expect(configIdentity(project, { ...env, HOOKBOX_ORG_CONFIG: org }).identity).not.toBe(all.identity);
  });

  it('a missing project config counts as empty', () => {
    const missing = path.join(root, 'project', 'missing.json');
    expect(configIdentity(missing, env)).toStrictEqual({ path: missing, identity: digest([['project', missing, '']]) });
  });

  it('a file named as two layers counts once, as the higher layer', () => {
    expect(configIdentity(user, env)).toStrictEqual({ path: user, identity: digest([['project', user, '']]) });
    writeFileSync(user, '{}');
    expect(configIdentity(user, env)).toStrictEqual({ path: user, identity: digest([['user', user, '{}']]) });
  });
});

describe('the health proof', () => {
  const token = 'token-0123456789abcdefghijklmnopqrstuvwxyz';
  const identity = 'sha256:abc';

  it('is HMAC-SHA256 under the token over the nonce and the identity', () => {
    const expected = createHmac('sha256', token).update(`hookbox-health\0n1\0${identity}`).digest('hex');
    expect(healthProof(token, 'n1', identity)).toBe(expected);
  });

  it('holds only for the right token, nonce and identity, given as 64 lower-case hex digits', () => {
    const proof = healthProof(token, 'n1', identity);
    expect([
      proofHolds(token, 'n1', identity, proof),
      proofHolds(`${token}x`, 'n1', identity, proof),
      proofHolds(token, 'n2', identity, proof),
      proofHolds(token, 'n1', 'sha256:abd', proof),
      proofHolds(token, 'n1', identity, proof.toUpperCase()),
      proofHolds(token, 'n1', identity, proof.slice(0, 63)),
      proofHolds(token, 'n1', identity, `${proof}0`),
      proofHolds(token, 'n1', identity, `x${proof}`),
      proofHolds(token, 'n1', identity, `${proof}x`),
      proofHolds(token, 'n1', identity, Buffer.from(proof, 'hex')),
      proofHolds(token, 'n1', identity, undefined),
      // Not a string, though it reads as the proof when made one (an answer's JSON can hold anything).
      proofHolds(token, 'n1', identity, [proof]),
    ]).toStrictEqual([true, false, false, false, false, false, false, false, false, false, false, false]);
  });
});
