import path from 'node:path';
import { type Capabilities, hostCovers, pathGrant } from '../runner/index.ts';
import { isInside, realpathOrNull } from './capabilities.ts';

/** How a grant reaches beyond its bound: the field (`allowedPaths`…) and what is too wide. */
export interface GrantExcess {
  readonly field: keyof Capabilities;
  readonly detail: string;
}

/**
 * The first way `grant` is wider than `bound`, or undefined when it stays
 * within it. Both have absolute host paths. A field the bound does not name
 * allows nothing (capabilities are deny-by-default). Paths are compared by
 * realpath, so a symlink inside the bound that leads out of it is wider;
 * `"write": true` needs a covering bound that allows writes; a host needs a
 * bound entry covering it (`*.example.com` covers `api.example.com` and
 * `*.api.example.com`); env names and the clock must be allowed by name.
 */
export function grantExcess(grant: Capabilities, bound: Capabilities): GrantExcess | undefined {
  const allowedHosts = bound.allowedHosts ?? [];
  for (const host of grant.allowedHosts ?? []) {
    if (!allowedHosts.some((allowed) => hostCovers(allowed, host))) {
      return { field: 'allowedHosts', detail: `"${host}" is not covered by ${list(allowedHosts)}` };
    }
  }
  const allowedPaths = Object.entries(bound.allowedPaths ?? {}).map(([host, value]) => ({ host, real: realOrResolved(host), write: pathGrant(value).write }));
  for (const [host, value] of Object.entries(grant.allowedPaths ?? {})) {
    const real = realOrResolved(host);
    const covering = allowedPaths.filter((allowed) => isInside(real, allowed.real));
    const shown = real === host ? `"${host}"` : `"${host}" (${real})`;
    if (covering.length === 0) return { field: 'allowedPaths', detail: `${shown} is outside ${list(allowedPaths.map((a) => a.host))}` };
    if (pathGrant(value).write && !covering.some((allowed) => allowed.write)) {
      return { field: 'allowedPaths', detail: `${shown} is writable, but ${list(covering.map((a) => a.host))} is read-only` };
    }
  }
  const env = bound.env ?? [];
  const extra = (grant.env ?? []).filter((name) => !env.includes(name));
  if (extra.length > 0) return { field: 'env', detail: `${list(extra)} not in ${list(env)}` };
  if (grant.clock === true && bound.clock !== true) return { field: 'clock', detail: 'true, but the clock is not allowed' };
  const signals = bound.signals ?? [];
  const ungranted = (grant.signals ?? []).filter((name) => !signals.includes(name));
  if (ungranted.length > 0) return { field: 'signals', detail: `${list(ungranted)} not in ${list(signals)}` };
  return undefined;
}

/** The realpath; for a path that does not exist yet, its deepest existing ancestor's realpath plus the rest (a symlinked parent counts). */
function realOrResolved(file: string): string {
  const absolute = path.resolve(file);
  const real = realpathOrNull(absolute);
  if (real !== null) return real;
  const parent = path.dirname(absolute);
  return parent === absolute ? absolute : path.join(realOrResolved(parent), path.basename(absolute));
}

function list(items: readonly string[]): string {
  return items.length === 0 ? 'nothing' : items.map((item) => `"${item}"`).join(', ');
}
