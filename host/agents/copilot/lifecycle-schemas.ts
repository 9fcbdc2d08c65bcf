import * as z from 'zod';

/**
 * Copilot CLI's lifecycle events (#51) in its own format, as `copilot`
 * 1.0.102 sent them to a logging hook headless against the mock model
 * (2026-12-07): `sessionEnd {reason: "complete"}`; a `task` call's
 * `subagentStart {agentName, agentId, agentType, parentAgentId}` and
 * `subagentStop {agentId, agentType, agentName, response, stopReason,
 * stop_hook_active}`; without `--allow-all-tools`, a shell call's
 * `permissionRequest {toolName, toolInput, permissionSuggestions}`.
 */
export const COPILOT_LIFECYCLE_SCHEMAS = {
  sessionEnd: z.looseObject({ reason: z.unknown().optional() }),
  subagentStart: z.looseObject({ agentId: z.string().optional(), agentType: z.string().optional(), agentName: z.string().optional() }),
  subagentStop: z.looseObject({
    agentId: z.string().optional(),
    agentType: z.string().optional(),
    response: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
    stopHookActive: z.boolean().optional(),
  }),
  permissionRequest: z.looseObject({ toolName: z.string().min(1), toolInput: z.record(z.string(), z.unknown()).optional() }),
} as const;
