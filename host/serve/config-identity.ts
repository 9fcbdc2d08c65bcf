import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { layerFiles } from '../config/index.ts';

/**
 * Which configuration a server decides by: the project config it was started
 * with (its real path, so two spellings of one file agree) and a digest of
 * every layer as loaded — the organisation's, the user's and the project's
 * file names and bytes. A client names its config path on each request; the
 * server refuses an event of another project's config, and `hookbox doctor`
 * compares the digest with the files on disk (a server started before the
 * config changed serves the old one).
 */
export interface ServedConfig {
  readonly path: string;
  readonly identity: string;
}

/** The real path of a config file, or its absolute path when it does not exist. */
export function canonicalConfigPath(file: string): string {
  const absolute = path.resolve(file);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** sha256 over each present layer's name, file and bytes, highest layer first (`sha256:<hex>`). */
export function configIdentity(projectConfig: string, env: NodeJS.ProcessEnv = process.env): ServedConfig {
  const hash = createHash('sha256');
  for (const layer of layerFiles({ project: projectConfig, env })) {
    if (!layer.present || layer.shadowedBy !== undefined) continue;
    const bytes = existsSync(layer.file) ? readFileSync(layer.file) : Buffer.alloc(0);
    hash.update(`${layer.layer}\0${canonicalConfigPath(layer.file)}\0${bytes.length}\0`).update(bytes);
  }
  return { path: canonicalConfigPath(projectConfig), identity: `sha256:${hash.digest('hex')}` };
}

/** Request header naming the config a client decides by (URI-encoded path). */
export const CONFIG_HEADER = 'x-hookbox-config';
/** Response header saying why a server refused to decide (`other-config`). */
export const REFUSED_HEADER = 'x-hookbox-refused';

/**
 * The proof a server gives `GET /health?nonce=…`: HMAC-SHA256 keyed by the
 * bearer token over the nonce and the config identity. Only a process that
 * holds the token can answer it, so `doctor` tells hookbox from a squatter
 * on the port — and learns which config it serves in the same answer.
 */
export function healthProof(token: string, nonce: string, identity: string): string {
  return createHmac('sha256', token).update(`hookbox-health\0${nonce}\0${identity}`).digest('hex');
}

/** Whether `proof` is the right answer for this token, nonce and identity (constant-time). */
export function proofHolds(token: string, nonce: string, identity: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(healthProof(token, nonce, identity), 'hex'), Buffer.from(proof, 'hex'));
}
