import type { Command } from 'commander';
import * as z from 'zod';
import { CATALOG, catalogNames, catalogPolicy } from '../../catalog/index.ts';
import { ConfigError } from '../../errors.ts';

/**
 * Registers `hookbox policies [name]`: the built-in policy catalog, one a
 * line (name first); with a name, its seams, rules, config schema and an
 * example config entry.
 */
export function registerPoliciesCommand(program: Command): void {
  program
    .command('policies')
    .description('list the built-in policies a config names with "policy"; with <name>, its config schema and an example entry')
    .argument('[name]', 'a policy to describe')
    .action((name: string | undefined) => {
      if (name === undefined) {
        const width = Math.max(...CATALOG.map((policy) => policy.name.length));
        for (const policy of CATALOG) process.stdout.write(`${policy.name.padEnd(width)}  ${policy.summary}\n`);
        return;
      }
      const policy = catalogPolicy(name);
      if (policy === undefined) throw new ConfigError(`no built-in policy "${name}" (the catalog has ${catalogNames().join(', ')})`);
      const { $schema: _ignored, ...schema } = z.toJSONSchema(policy.configSchema, { io: 'input' }) as Record<string, unknown>;
      // A policy that reads signals needs them granted on its entry (and declared in "signals"), or the config is refused.
      const signals = policy.signals?.(policy.configSchema.parse(policy.example)) ?? [];
      const entry = { name: policy.name, policy: policy.name, config: policy.example, ...(signals.length > 0 && { grant: { signals } }) };
      const declare = signals.map((signal) => `it reads the signal "${signal}": declare it in "signals" of hookbox.config.json ({"${signal}": {"argv": ["<program>", "<arg>", …]}}) and grant it on the entry`);
      process.stdout.write(
        [
          `${policy.name}: ${policy.summary}`,
          `seams: ${policy.seams.join(', ')}`,
          `rules (the reason starts "${policy.name}: <rule>:"): ${policy.rules.join(', ')}`,
          '',
          'config schema:',
          JSON.stringify(schema, null, 2),
          '',
          ...(declare.length > 0 ? [...declare, ''] : []),
          'example entry of "hooks" in hookbox.config.json:',
          JSON.stringify(entry, null, 2),
          '',
        ].join('\n'),
      );
    });
}
