import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathUnder } from '../path-under.ts';
import { ConfigError } from '../errors.ts';
import { type Capabilities, type PathGrant, hostCovers, pathGrant } from '../runner/index.ts';

/** Where each side of an intersection comes from, for error messages (file and JSON path). */
export interface CapabilitySources {
  /** e.g. `/x/hook/hook.json: capabilities.allowedPaths` */
  readonly request: string;
  /** e.g. `/x/hookbox.config.json: hooks[0].grant.allowedPaths` */
  readonly grant: string;
}

const UNNAMED: CapabilitySources = { request: 'the requested capabilities.allowedPaths', grant: 'the granted allowedPaths' };

/**
 * What a plugin actually gets: the intersection of what its manifest
 * requests and what the operator grants. Deny-by-default: anything only one
 * side names is dropped. A hook without a manifest requests nothing on its
 * own, so the operator's grant is the whole request (`requested` undefined).
 *
 * - `allowedHosts`: a requested host is kept when a grant equals it or a
 *   grant `*.suffix` covers it (`*.example.com` covers `api.example.com`).
 * - `allowedPaths` (host → guest): both sides are compared by realpath. A
 *   requested directory is kept (keyed by its realpath, with the manifest's
 *   guest path) when it is a granted directory or inside one. A request
 *   that lies inside a grant by name but resolves outside it (a symlink out
 *   of the grant) is a `ConfigError`, as is a request for `"write": true`
 *   that no covering grant gives, or a path that does not exist.
 * - `env`: names on both lists. `clock`: both must say true.
 * - `signals`: granted names the request names (a request of `"*"` takes every granted one).
 */
export function intersectCapabilities(
  requested: Capabilities | undefined,
  granted: Capabilities | undefined,
  sources: CapabilitySources = UNNAMED,
): Capabilities {
  const grant = granted ?? {};
  const out: { -readonly [K in keyof Capabilities]: Capabilities[K] } = {};
  const request = requested ?? grant;
  const where = requested === undefined ? sources.grant : sources.request;

  const hosts = (request.allowedHosts ?? []).filter((host) => (grant.allowedHosts ?? []).some((g) => hostCovers(g, host)));
  if (hosts.length > 0) out.allowedHosts = hosts;

  const grants = Object.entries(grant.allowedPaths ?? {}).map(([host, value]) => ({
    host,
    real: realpathOrNull(host),
    write: pathGrant(value).write,
  }));
  const paths: Record<string, PathGrant> = {};
  for (const [host, value] of Object.entries(request.allowedPaths ?? {})) {
    const { guest, write } = pathGrant(value);
    const lexical = grants.find((g) => isInside(path.resolve(host), path.resolve(g.host)));
    const real = realpathOrNull(host);
    if (real === null) {
      if (lexical === undefined) continue;
      throw new ConfigError(`${where}: "${host}" does not exist (or cannot be resolved); a granted path must be an existing directory`);
    }
    const covering = grants.filter((g) => g.real !== null && isInside(real, g.real));
    if (covering.length === 0) {
      if (lexical === undefined) continue;
      throw new ConfigError(
        `${where}: "${host}" resolves to ${real}, outside the grant "${lexical.host}" (${sources.grant}); a path that leaves its grant through a symlink is refused`,
      );
    }
    if (write && !covering.some((g) => g.write)) {
      throw new ConfigError(
        `${where}: "${host}" asks for "write": true, but ${sources.grant} grants "${covering[0]?.host}" read-only (add "write": true to that grant to allow writes)`,
      );
    }
    paths[real] = write ? { path: guest, write: true } : guest;
  }
  if (Object.keys(paths).length > 0) out.allowedPaths = paths;

  const env = (request.env ?? []).filter((name) => (grant.env ?? []).includes(name));
  if (env.length > 0) out.env = env;

  if (request.clock === true && grant.clock === true) out.clock = true;

  // Signals are the operator's: a manifest names those it reads, or "*" for whatever is granted.
  const wanted = request.signals ?? [];
  const signals = (grant.signals ?? []).filter((name) => wanted.includes('*') || wanted.includes(name));
  if (signals.length > 0) out.signals = signals;
  return out;
}

/** The realpath of `file`, or null when it does not exist or cannot be resolved. */
export function realpathOrNull(file: string): string | null {
  try {
    return realpathSync(path.resolve(file));
  } catch {
    return null;
  }
}

/** Whether `child` is `parent` or lies under it (both absolute). */
export function isInside(child: string, parent: string): boolean {
  return pathUnder(parent, child) !== undefined;
}
