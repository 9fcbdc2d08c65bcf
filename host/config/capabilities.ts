import path from 'node:path';
import type { Capabilities } from '../runner/index.ts';

/**
 * What a plugin actually gets: the intersection of what its manifest
 * requests and what the operator grants. Deny-by-default: anything only one
 * side names is dropped. A hook without a manifest requests nothing on its
 * own, so the operator's grant is the whole request (`requested` undefined).
 *
 * - `allowedHosts`: a requested host is kept when a grant equals it or a
 *   grant `*.suffix` covers it (`*.example.com` covers `api.example.com`).
 * - `allowedPaths` (host → guest): a requested host path is kept when it
 *   equals a granted host path or lies inside one; the guest path is the
 *   manifest's.
 * - `env`: names on both lists. `clock`: both must say true.
 */
export function intersectCapabilities(requested: Capabilities | undefined, granted: Capabilities | undefined): Capabilities {
  const grant = granted ?? {};
  const request = requested ?? grant;
  const out: { -readonly [K in keyof Capabilities]: Capabilities[K] } = {};

  const hosts = (request.allowedHosts ?? []).filter((host) => (grant.allowedHosts ?? []).some((g) => hostCovers(g, host)));
  if (hosts.length > 0) out.allowedHosts = hosts;

  const grantedPaths = Object.keys(grant.allowedPaths ?? {}).map((p) => path.resolve(p));
  const paths: Record<string, string> = {};
  for (const [host, guest] of Object.entries(request.allowedPaths ?? {})) {
    const resolved = path.resolve(host);
    if (grantedPaths.some((g) => isInside(resolved, g))) paths[host] = guest;
  }
  if (Object.keys(paths).length > 0) out.allowedPaths = paths;

  const env = (request.env ?? []).filter((name) => (grant.env ?? []).includes(name));
  if (env.length > 0) out.env = env;

  if (request.clock === true && grant.clock === true) out.clock = true;
  return out;
}

function hostCovers(grant: string, host: string): boolean {
  if (grant === host) return true;
  if (!grant.startsWith('*.')) return false;
  const suffix = grant.slice(1); // ".example.com"
  const bare = host.startsWith('*.') ? host.slice(1) : `.${host}`;
  return bare.endsWith(suffix) && bare.length > suffix.length;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
