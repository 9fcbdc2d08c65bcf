import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';
import { SignalRefSchema } from './post-edit-check.ts';

/** `test-gate`'s config (what `examples-hooks/policies/test-gate/rules.ts` reads). */
export const TestGateConfigSchema = z.strictObject({
  /** The declared signal that runs the tests; the entry must grant it (`grant.signals`). */
  signal: SignalRefSchema,
  /** Times a turn is sent back while the tests fail; then the agent may stop. */
  maxContinuations: z.number().int().min(0).max(20).default(3),
  /** Characters of the test run's (cleaned) output given as the reason. */
  maxChars: z.number().int().min(200).max(20_000).default(4000),
});

export const TEST_GATE: CatalogPolicy = {
  name: 'test-gate',
  summary: 'keeps the turn going while the operator\'s test signal fails (its output as the reason), up to maxContinuations times',
  seams: ['agent/turn-continuation'],
  rules: ['failed', 'config-error'],
  configSchema: TestGateConfigSchema,
  example: { signal: 'test', maxContinuations: 3, maxChars: 4000 },
  signals: (config) => [(config as { signal: string }).signal],
};
