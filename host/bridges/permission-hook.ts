import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.ts';
import type { ListenerOutcome, SeamCall, SeamListener } from '../events/index.ts';
import type { DecisionOf, PayloadOf, SeamId } from '../seams/index.ts';
import { type CompiledRule, PERMISSION_BEHAVIOURS, type PermissionRules, compileRule } from './permission-rules.ts';

/** The rule hook, shaped like the other hooks of a config (it holds nothing to close). */
export interface PermissionHook extends SeamListener {
  readonly sandbox: 'native';
  readonly exports: readonly SeamId[];
  readonly quarantined: false;
  reload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A Claude Code settings file's `permissions` as a native pre-tool hook: the
 * first matching `deny` rule denies, else the first matching `ask` rule asks,
 * else the first matching `allow` rule allows; no match is no opinion (the
 * other hooks and hookbox's defaults decide). It fails closed: a rule that
 * throws is a fault, and a pre-tool fault denies.
 *
 * @throws ConfigError naming `where` and the rule when a rule cannot be enforced (the importer refuses those first)
 */
export function permissionRulesHook(name: string, rules: PermissionRules, where: string): PermissionHook {
  const compiled: CompiledRule[] = [];
  for (const behaviour of PERMISSION_BEHAVIOURS) {
    (rules[behaviour] ?? []).forEach((rule, index) => {
      const at = `permissions.${behaviour}[${index}]`;
      const result = compileRule(behaviour, rule, at, rules.root);
      if ('why' in result) throw new ConfigError(`${where}.${at}: ${JSON.stringify(rule)} cannot be enforced: ${result.why}`);
      compiled.push(result);
    });
  }
  const digest = createHash('sha256').update(JSON.stringify(rules)).digest('hex');
  return {
    name,
    digest,
    sandbox: 'native',
    seams: ['tools/pre-execute'],
    exports: ['tools/pre-execute'],
    quarantined: false,
    failPolicy: 'closed',
    reload: async () => {},
    close: async () => {},
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      if (call.seam !== 'tools/pre-execute') return { type: 'no-opinion' };
      const payload = call.payload as PayloadOf<'tools/pre-execute'>;
      // Compiled in deny, ask, allow order: the first match is the answer.
      const rule = compiled.find((candidate) => candidate.matches(payload.toolName, payload.arguments, call.session.cwd));
      if (rule === undefined) return { type: 'no-opinion' };
      const reason = `${rule.behaviour === 'allow' ? 'allowed' : rule.behaviour === 'ask' ? 'needs approval' : 'denied'} by the imported Claude Code rule ${rule.at} ${JSON.stringify(rule.rule)}`;
      return { type: 'decision', decision: { action: rule.behaviour, reason } as DecisionOf<S> };
    },
  };
}
