import type { AgentProbe } from '../agent-bridge.ts';
import { probeCommon } from '../probe-parts.ts';

/** `hookbox doctor`'s probe of a Factory Droid setup: a PreToolUse for `Execute` running `true` (no `tool_use_id`, as Factory sends). */
export const factoryProbe: AgentProbe = {
  event: (cwd) => ({ ...probeCommon(cwd, 'PreToolUse'), tool_name: 'Execute', tool_input: { command: 'true', summary: 'Check hookbox answers' } }),
  timeoutUnitMs: 1000,
};
