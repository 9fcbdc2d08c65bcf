import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { DoctorFinding } from '../agents/index.ts';
import { CONFIG_HEADER, canonicalConfigPath, configIdentity, proofHolds } from '../serve/config-identity.ts';
import { printable } from '../text/index.ts';

/** Where doctor reaches a server: its unix socket, or an http hook's URL with the headers the agent sends. */
export type ServerTarget = { readonly socket: string; readonly agent?: string; readonly config?: string } | { readonly url: string; readonly headers: Record<string, string> };

function request(target: ServerTarget, method: string, pathAndQuery: string, body: string | undefined, headers: Record<string, string | number>): http.ClientRequest {
  const options: http.RequestOptions = { method, headers, timeout: 10_000 };
  if ('socket' in target) return http.request({ ...options, socketPath: target.socket, path: pathAndQuery });
  return http.request(new URL(pathAndQuery, target.url), options);
}

/** POSTs a probe event; ok when the server answered 200 with a decision. */
export function postProbe(target: ServerTarget, body: string): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...('headers' in target ? target.headers : {}),
      ...('config' in target && target.config !== undefined && { [CONFIG_HEADER]: encodeURIComponent(target.config) }),
    };
    const req = 'socket' in target ? request(target, 'POST', `/hooks/${target.agent ?? 'claude-code'}`, body, headers) : http.request(target.url, { method: 'POST', headers, timeout: 10_000 });
    req.on('response', (response) => {
      response.resume();
      const exit = response.headers['x-hookbox-exit'];
      const ok = response.statusCode === 200 && (exit === undefined || exit === '0' || exit === '2');
      resolve({ ok, detail: `HTTP ${String(response.statusCode)}${exit === undefined ? '' : `, exit ${String(exit)}`}` });
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (error) => resolve({ ok: false, detail: error.message }));
    req.end(body);
  });
}

interface Health {
  readonly config?: unknown;
  readonly identity?: unknown;
  readonly proof?: unknown;
}

function getHealth(target: ServerTarget, nonce: string): Promise<{ status: number; health?: Health; error?: string }> {
  return new Promise((resolve) => {
    const req = request(target, 'GET', `/health?nonce=${nonce}`, undefined, 'headers' in target ? target.headers : {});
    req.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text.length < 64 * 1024) text += chunk;
      });
      response.on('end', () => {
        try {
          resolve({ status: response.statusCode ?? 0, health: JSON.parse(text) as Health });
        } catch {
          resolve({ status: response.statusCode ?? 0, error: 'the answer is not hookbox health JSON' });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (error) => resolve({ status: 0, error: error.message }));
    req.end();
  });
}

/**
 * Asks the server who it is. Over http: a fresh nonce, answered with an
 * HMAC keyed by the bearer token over the nonce and the served config's
 * identity — a process on the port that does not hold the token (a
 * squatter) cannot answer it. Over the socket (a private folder): the
 * config it serves. With `config`: the server must serve exactly this
 * project's layered config as it is on disk now.
 */
export async function checkServerIdentity(target: ServerTarget, config: string | undefined): Promise<DoctorFinding> {
  const where = 'socket' in target ? `server on ${target.socket}` : `server at ${target.url}`;
  const nonce = randomBytes(24).toString('base64url');
  const answer = await getHealth(target, nonce);
  const health = answer.health;
  if (health === undefined) return { ok: false, what: `${where} did not say who it is (${printable(answer.error ?? `HTTP ${answer.status}`, { maxLength: 200 })})`, fix: 'start it: hookbox serve --config <your hookbox.config.json>' };
  const identity = typeof health.identity === 'string' ? health.identity : '';
  if ('headers' in target) {
    const token = /^Bearer (\S+)$/.exec(target.headers.Authorization ?? target.headers.authorization ?? '')?.[1];
    if (token === undefined || !proofHolds(token, nonce, identity, health.proof)) {
      return {
        ok: false,
        what: `${where} is NOT hookbox: it did not prove it holds the bearer token (a squatter on the port gets every prompt, tool call and output, and the token)`,
        fix: 'stop whatever listens on that port, then start hookbox serve there (or set up another --port)',
      };
    }
  }
  const served = typeof health.config === 'string' ? printable(health.config, { maxLength: 300 }) : '(unknown)';
  if (config === undefined) return { ok: true, what: `${where} is hookbox${'headers' in target ? ' (proved it holds the token)' : ''}, serving ${served}` };
  const wanted = configIdentity(config);
  if (health.config !== canonicalConfigPath(config)) {
    return { ok: false, what: `${where} serves ${served}, not this project's ${wanted.path}: it refuses this project's events (they are decided in-process)`, fix: `start one for this project: hookbox serve --config ${wanted.path} --socket <the --socket in the settings>` };
  }
  if (identity !== wanted.identity) {
    return { ok: false, what: `${where} serves ${served} as it was when it started; the layered config changed since`, fix: 'restart hookbox serve' };
  }
  return { ok: true, what: `${where} serves this project's layered config (${wanted.identity.slice(0, 19)}…)` };
}
