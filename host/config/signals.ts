/**
 * The operator's signals in the config: the `signals` declarations of each
 * layer (a name a higher layer declared cannot be declared again below it),
 * and the signals a hook's `grant.signals` names, resolved against them. A
 * grant of a name nobody declared is a `ConfigError` naming the file and
 * the JSON path.
 */
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import type { Capabilities, SignalDeclaration, SignalSpec } from '../runner/index.ts';

/** Declared signals by name, with their folders absolute. */
export type DeclaredSignals = Readonly<Record<string, SignalSpec>>;

/** A layer's `signals` over those of the layers above it (its folders relative to its own file). */
export function declareSignals(own: Readonly<Record<string, SignalDeclaration>> | undefined, file: string, above: DeclaredSignals = {}): DeclaredSignals {
  const out: Record<string, SignalSpec> = { ...above };
  for (const [name, declaration] of Object.entries(own ?? {})) {
    const higher = above[name];
    if (higher !== undefined) {
      throw new ConfigError(`${file}: signals.${name}: already declared by ${higher.declaredAt}; a lower layer cannot redeclare a signal (give it another name)`);
    }
    out[name] = {
      name,
      argv: declaration.argv,
      cwd: path.resolve(path.dirname(file), declaration.cwd ?? '.'),
      timeoutMs: declaration.timeoutMs,
      maxOutputBytes: declaration.maxOutputBytes,
      declaredAt: `${file}: signals.${name}`,
    };
  }
  return out;
}

/** Checks a grant's signal names against the declarations; `at` is the grant's JSON path (`hooks[0].grant`). */
export function checkSignalGrant(grant: Capabilities, declared: DeclaredSignals, where: { file: string; at: string }): void {
  (grant.signals ?? []).forEach((name, index) => {
    const here = `${where.file}: ${where.at}.signals[${index}]`;
    if (name === '*') throw new ConfigError(`${here}: "*" is a manifest's request; an operator grants signals by name`);
    if (!Object.hasOwn(declared, name)) {
      const names = Object.keys(declared);
      throw new ConfigError(`${here}: signal "${name}" is not declared (${names.length === 0 ? 'the config declares no "signals"' : `declared: ${names.join(', ')}`})`);
    }
  });
}

/** The declarations of the signals a hook ends up with (its capabilities, after the manifest's request). */
export function grantedSignals(capabilities: Capabilities, declared: DeclaredSignals): DeclaredSignals | undefined {
  const names = (capabilities.signals ?? []).filter((name) => Object.hasOwn(declared, name));
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, declared[name] as SignalSpec]));
}

/** A catalog policy's signals (its config names them) must be in the entry's grant: refused here, not at its first event. */
export function checkPolicySignals(needed: readonly string[], grant: Capabilities, where: { file: string; at: string; policy: string }): void {
  for (const name of needed) {
    if (!(grant.signals ?? []).includes(name)) {
      throw new ConfigError(`${where.file}: ${where.at}.config.signal: the "${where.policy}" policy reads signal "${name}", which the entry does not grant (add "grant": {"signals": ["${name}"]} to it)`);
    }
  }
}
