/**
 * Allowed-host matching, shared by the runner (which hosts a hook's
 * `Http.request` may reach) and `host/config` (what an operator's grant
 * covers of a manifest's request).
 */

/**
 * Whether the allowed-host entry `grant` (exact, `*.suffix`, or `*` for every host, as in an
 * Extism manifest's `allowed_hosts`) covers `host` (itself possibly a wildcard).
 */
export function hostCovers(grant: string, host: string): boolean {
  if (grant === host || grant === '*') return true;
  if (!grant.startsWith('*.')) return false;
  const suffix = grant.slice(1); // ".example.com"
  const bare = host.startsWith('*.') ? host.slice(1) : `.${host}`;
  return bare.endsWith(suffix) && bare.length > suffix.length;
}
