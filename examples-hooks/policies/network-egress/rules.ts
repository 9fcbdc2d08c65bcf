/**
 * network-egress' pure policy: the hosts a tool call reaches (`reach.ts`)
 * against the operator's deny list and allow list. Reasons start
 * `network-egress: <rule>:`.
 */
import { oneOf, stringList } from '../shared/config.ts';
import { compileHostPattern, matchHost, type HostPattern } from '../shared/hosts.ts';
import { callReach } from './reach.ts';

export const RULES = ['denied-host', 'unlisted-host', 'unreadable', 'config-error'] as const;

/** The config as the host validated it (defaults filled in): `host/catalog/network-egress.ts`. */
export interface EgressConfig {
  readonly allow: readonly HostPattern[];
  readonly deny: readonly HostPattern[];
  readonly unlisted: 'deny' | 'ask';
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly reason: string };

export function parseConfig(value: unknown): EgressConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const allow = stringList(config.allow);
  const deny = stringList(config.deny);
  const unlisted = oneOf(config.unlisted, ['deny', 'ask'] as const);
  if (allow === undefined || deny === undefined) return { error: 'allow, deny: expected arrays of host patterns' };
  if (unlisted === undefined) return { error: 'unlisted: expected deny or ask' };
  return { allow: allow.map(compileHostPattern), deny: deny.map(compileHostPattern), unlisted };
}

/**
 * Judges one pre-tool call: a host on the deny list is denied; with an allow
 * list, a host on none of it gets `unlisted`. The first host that objects decides.
 */
export function judgeCall(toolName: string, args: Record<string, unknown>, config: EgressConfig): Verdict {
  const { reach, unreadable } = callReach(toolName, args);
  for (const { host, via } of reach) {
    const denied = matchHost(config.deny, host);
    if (denied !== undefined) return { action: 'deny', reason: `network-egress: denied-host: ${toolName} reaches ${JSON.stringify(host)} (via ${via}), denied by ${JSON.stringify(denied.source)}` };
  }
  if (config.allow.length > 0) {
    for (const { host, via } of reach) {
      if (matchHost(config.allow, host) === undefined) {
        return { action: config.unlisted, reason: `network-egress: unlisted-host: ${toolName} reaches ${JSON.stringify(host)} (via ${via}), which is not on the allow list` };
      }
    }
  }
  if (unreadable) return { action: 'deny', reason: `network-egress: unreadable: ${toolName}: the command nests scripts too deeply to check which hosts it reaches` };
  return { action: 'allow' };
}
