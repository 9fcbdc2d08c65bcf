import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, unlinkSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../errors.ts';

/**
 * The server's side of the per-event clients' listener proof (the clients'
 * side and why: host/listener-proof.cjs; tests/unit/listener-proof.spec.ts
 * holds the two equal). At start `hookbox serve` writes a fresh random key
 * into `<socket>.key` (0600, in the private socket folder); each answer on
 * the socket to a request carrying a nonce carries the proof, which only a
 * reader of the key can make.
 */
export const NONCE_HEADER = 'x-hookbox-nonce';
export const PROOF_HEADER = 'x-hookbox-proof';

export function keyFileOf(socket: string): string {
  return `${socket}.key`;
}

/** A fresh key in `<socket>.key` (any old one replaced: a restarted server proves itself with a new key). */
export function writeProofKey(socket: string): string {
  const file = keyFileOf(socket);
  if (existsSync(file)) {
    if (!lstatSync(file).isFile()) throw new ConfigError(`${file}: exists and is not a regular file; refusing to replace it`);
    unlinkSync(file);
  }
  const key = randomBytes(32).toString('hex');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** The nonce a request carries, when it is one (32 lowercase hex). */
export function requestNonce(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value) ? value : undefined;
}

/** The proof for one answer: `refused` the refusal word or `-`, `text` the answer's text. */
export function answerProof(key: string, nonce: string, exit: number, refused: string, text: string): string {
  return createHash('sha256').update(`${key}\n${nonce}\n${exit}\n${refused}\n`).update(text).digest('hex');
}
