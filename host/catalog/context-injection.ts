import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

const ContextSchema = z.string().trim().min(1, 'an empty context adds nothing').max(20_000, 'at most 20,000 characters: context is paid for on every turn');

/** `context-injection`'s config (what `examples-hooks/policies/context-injection/rules.ts` reads, defaults filled in). */
export const ContextInjectionConfigSchema = z
  .strictObject({
    /** Context given to the model when a session starts. */
    sessionStart: ContextSchema.optional(),
    /** The session-start sources it is given for (`startup`, `resume`, `clear`, `compact`). */
    sources: z.array(z.enum(['startup', 'resume', 'clear', 'compact'])).min(1).default(['startup', 'resume', 'clear', 'compact']),
    /** Context given with every prompt the user submits. */
    prompt: ContextSchema.optional(),
  })
  .refine((config) => config.sessionStart !== undefined || config.prompt !== undefined, 'set sessionStart, prompt or both');

export const CONTEXT_INJECTION: CatalogPolicy = {
  name: 'context-injection',
  summary: 'adds fixed context at session start (for the start sources chosen) and with every prompt',
  seams: ['agent/session-start', 'agent/prompt-submit'],
  rules: ['session-start', 'prompt', 'config-error'],
  configSchema: ContextInjectionConfigSchema,
  example: { sessionStart: 'Run `npm test` before you say a change is done. Never edit generated files under gen/.', sources: ['startup', 'clear', 'compact'], prompt: 'Answer in English.' },
};
