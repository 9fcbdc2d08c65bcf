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
    /** Context given to every subagent the agent starts (where the agent takes subagent context: Claude Code's SubagentStart). */
    subagentStart: ContextSchema.optional(),
    /** The subagent types it is given to (`Explore`, `general-purpose`…, as the agent names them); unset: every subagent. */
    subagentTypes: z.array(z.string().trim().min(1, 'an empty subagent type matches no subagent')).min(1, 'list at least one subagent type, or leave the key out for all').optional(),
  })
  .refine((config) => config.sessionStart !== undefined || config.prompt !== undefined || config.subagentStart !== undefined, 'set sessionStart, prompt, subagentStart or several')
  .refine((config) => config.subagentTypes === undefined || config.subagentStart !== undefined, { message: 'subagentTypes chooses who gets subagentStart: set subagentStart too', path: ['subagentTypes'] });

export const CONTEXT_INJECTION: CatalogPolicy = {
  name: 'context-injection',
  summary: 'adds fixed context at session start (for the start sources chosen), with every prompt and to every subagent started (for the types chosen)',
  seams: ['agent/session-start', 'agent/prompt-submit', 'agent/subagent-start'],
  rules: ['session-start', 'prompt', 'subagent-start', 'config-error'],
  configSchema: ContextInjectionConfigSchema,
  example: { sessionStart: 'Run `npm test` before you say a change is done. Never edit generated files under gen/.', sources: ['startup', 'clear', 'compact'], prompt: 'Answer in English.', subagentStart: 'You are a subagent: report what you found, change no files.', subagentTypes: ['Explore'] },
};
