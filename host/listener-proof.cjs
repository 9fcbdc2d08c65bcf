// What a per-event client checks before it takes an answer from a unix
// socket as `hookbox serve`'s (issue #48 item 3: whatever listens on the
// project socket would otherwise decide). Shared by the node client
// (host/cli/hookbox-hook.cjs) and the plugin client
// (host/agents/plugin-client.mjs); the sh client (host/cli/hookbox-hook.sh)
// mirrors it and hands every doubt to the node client; the server's side is
// host/serve/listener-proof.ts, held equal by tests/unit/listener-proof.spec.ts.
//
// Two checks:
// 1. The folders: the socket's folder is a real directory (not a symlink)
//    owned by this user with no group/other bits — what `hookbox serve`
//    makes of its own folder (host/serve/paths.ts) — and every folder from
//    it up to the nearest `.hookbox` is a real directory owned by this user
//    (a symlinked `.hookbox` points at someone else's folder); the socket is
//    no symlink and this user's.
// 2. The proof: `hookbox serve` writes a random key into `<socket>.key`
//    (0600, in that private folder) at start; the client sends a fresh nonce
//    and the server answers with sha256 of `key \n nonce \n exit \n
//    refused \n text` (no field but the last can hold a newline, so the
//    fields cannot slide into each other). A listener that cannot read the
//    key cannot answer it; one that could relay to the real server would be
//    this user's own process, which can read the key anyway.
//    A keyed SHA-256 rather than an HMAC so the sh client can check it with
//    `sha256sum` alone (coreutils; Debian's base images have no openssl).
// Plain CommonJS on node builtins: the clients load no TypeScript.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: the node client loads no ESM on its hot path */

const { createHash, randomBytes, timingSafeEqual } = require('node:crypto');
const { lstatSync, readFileSync } = require('node:fs');
const { basename, dirname } = require('node:path');

// The headers and the answer cap are the wire's (host/wire.cjs).
const { EXIT_HEADER, MAX_ANSWER, NONCE_HEADER, PROOF_HEADER, REFUSED_HEADER } = require('./wire.cjs');

/** The key file of the server listening on `socket`. */
function keyFileOf(socket) {
  return `${socket}.key`;
}

function newNonce() {
  return randomBytes(16).toString('hex');
}

/** The proof for one answer: `refused` is the server's refusal word or `-`, `text` the answer's bytes. */
function answerProof(key, nonce, exit, refused, text) {
  return createHash('sha256').update(`${key}\n${nonce}\n${exit}\n${refused}\n`).update(text).digest('hex');
}

/** Whether `proof` (a header's value, maybe absent) is the one for this answer. */
function proofHolds(key, nonce, exit, refused, text, proof) {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(answerProof(key, nonce, exit, refused, text)), Buffer.from(proof));
}

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** What is wrong with a path's owner (undefined when it is this user). */
function notMine(path, stat) {
  const me = uid();
  return me !== undefined && stat.uid !== me ? `${path} is owned by uid ${stat.uid}, not by you (uid ${me})` : undefined;
}

/** The folders a socket path is checked through: its own, then up to the nearest `.hookbox` (when one is above it). */
function checkedFolders(socket) {
  const chain = [];
  for (let dir = dirname(socket); ; dir = dirname(dir)) {
    chain.push(dir);
    if (basename(dir) === '.hookbox') return chain;
    if (dirname(dir) === dir) return [dirname(socket)];
  }
}

/**
 * Why the listener on `socket` is not to be asked: `undefined` when its
 * folders and socket pass, `'absent'` when there is no socket (nothing
 * listens: the in-process decision is the client's), else the reason, naming
 * the path and what is wrong.
 */
function unsafeListener(socket) {
  const folders = checkedFolders(socket);
  for (const [i, dir] of folders.entries()) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch (error) {
      if (error.code === 'ENOENT' && i === 0) return 'absent';
      return `${dir} cannot be checked (${error.code ?? error.message})`;
    }
    if (stat.isSymbolicLink()) return `${dir} is a symbolic link; hookbox's socket folders must be real folders`;
    if (!stat.isDirectory()) return `${dir} is not a directory`;
    const owner = notMine(dir, stat);
    if (owner !== undefined) return owner;
    if (i === 0 && (stat.mode & 0o077) !== 0) return `${dir} is open to group or others (mode ${(stat.mode & 0o777).toString(8)}); hookbox serve keeps its socket folder 0700`;
  }
  let stat;
  try {
    stat = lstatSync(socket);
  } catch (error) {
    if (error.code === 'ENOENT') return 'absent';
    return `${socket} cannot be checked (${error.code ?? error.message})`;
  }
  if (stat.isSymbolicLink()) return `${socket} is a symbolic link, not hookbox serve's socket`;
  if (!stat.isSocket()) return `${socket} is not a socket`;
  return notMine(socket, stat);
}

/** The key of the server on `socket`: `{ key }`, or `{ error }` naming the file and what is wrong. */
function readKey(socket) {
  const file = keyFileOf(socket);
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    return { error: `${file} is missing (${error.code ?? error.message}): the listener on ${socket} is not a hookbox serve that can prove itself` };
  }
  if (!stat.isFile()) return { error: `${file} is not a regular file` };
  const owner = notMine(file, stat);
  if (owner !== undefined) return { error: owner };
  if ((stat.mode & 0o077) !== 0) return { error: `${file} is readable by group or others (mode ${(stat.mode & 0o777).toString(8)})` };
  const key = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(key)) return { error: `${file} does not hold one 64-hex-digit key` };
  return { key };
}

/**
 * Reads `hookbox serve`'s answer to `req` off `res`, for the node and plugin
 * clients alike: past MAX_ANSWER bytes the request is destroyed (`tooLarge`
 * names why); at the end the key is read — once there is an answer, so a
 * stale socket has refused the connection first — and the answer is handed
 * to `resolve` as `{status, exit, refused, text}` only when it carries the
 * proof made with that key and this request's `nonce`; anything else goes
 * to `reject` with the reason.
 */
function readProvedAnswer(req, res, socket, nonce, tooLarge, resolve, reject) {
  const chunks = [];
  let size = 0;
  res.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_ANSWER) req.destroy(new Error(tooLarge));
    else chunks.push(chunk);
  });
  res.on('end', () => {
    const { key, error } = readKey(socket);
    if (error !== undefined) return void reject(new Error(error));
    const bytes = Buffer.concat(chunks);
    const exit = res.headers[EXIT_HEADER];
    const refused = res.headers[REFUSED_HEADER];
    if (!proofHolds(key, nonce, exit ?? '', typeof refused === 'string' ? refused : '-', bytes, res.headers[PROOF_HEADER])) {
      reject(new Error(`the listener on ${socket} gave no proof that it is your hookbox serve (restart hookbox serve if it predates the proof)`));
      return;
    }
    resolve({ status: res.statusCode, exit, refused, text: bytes.toString('utf8') });
  });
  res.on('error', reject);
}

module.exports = { NONCE_HEADER, PROOF_HEADER, MAX_ANSWER, keyFileOf, newNonce, answerProof, proofHolds, unsafeListener, readKey, checkedFolders, readProvedAnswer };
