/**
 * Hosts a tool call reaches: URLs in shell downloaders' arguments, in fetch
 * tools' and MCP tools' arguments, and host patterns to match them against.
 * No PDK globals.
 */

/** A host pattern: `example.com` (that host), `*.example.com` (its subdomains, not itself), `*` (any). */
export interface HostPattern {
  readonly source: string;
  readonly test: (host: string) => boolean;
}

export function compileHostPattern(source: string): HostPattern {
  const pattern = source.trim().toLowerCase().replace(/\.$/, '');
  if (pattern === '*') return { source, test: () => true };
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return { source, test: (host) => host.endsWith(suffix) && host.length > suffix.length };
  }
  return { source, test: (host) => host === pattern };
}

/** The first pattern matching `host`, or `undefined`. */
export function matchHost(patterns: readonly HostPattern[], host: string): HostPattern | undefined {
  return patterns.find((pattern) => pattern.test(host));
}

const SCHEME_URL = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s]*)/i;
/** A bare `host[:port][/path]` as curl and wget take it (`example.com/x`); needs a dot and a letter TLD. */
const BARE_HOST = /^((?:[a-z0-9-]+\.)+[a-z]{2,63}|\[[0-9a-f:]+\]|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:[/?#].*)?$/i;

/**
 * The host of a URL (`https://user@Host:8443/x` → `host`), of `git@host:path`
 * or of a bare `host/path`; lowercased, without a trailing dot. `undefined`
 * for what names no host.
 */
export function hostOf(text: string): string | undefined {
  const url = SCHEME_URL.exec(text);
  if (url !== null) {
    if (/^file$/i.test(url[1] as string)) return undefined;
    return normalise((url[2] as string).replace(/^.*@/, ''));
  }
  const scp = /^[a-z0-9._-]+@([a-z0-9.-]+):/i.exec(text);
  if (scp !== null) return normalise(scp[1] as string);
  return BARE_HOST.test(text) ? normalise(text.replace(/[/?#].*$/, '')) : undefined;
}

function normalise(authority: string): string | undefined {
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '');
  const clean = host.toLowerCase().replace(/\.$/, '');
  return clean === '' ? undefined : clean;
}

/** Every `scheme://host` URL inside free text (a fetch tool's prompt, an MCP tool's argument). */
export function urlsIn(text: string): string[] {
  return text.match(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`)\]]+/gi) ?? [];
}

/** Every string inside an argument object, at most `depth` levels down (hookbox's `_hookbox` key left out). */
export function stringsIn(value: unknown, depth = 4): string[] {
  if (typeof value === 'string') return [value];
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) if (key !== '_hookbox') out.push(...stringsIn(item, depth - 1));
  return out;
}
