import type { AgentProbe } from '../agent-bridge.ts';
import { probeCommon } from '../probe-parts.ts';

/** `hookbox doctor`'s probe of a Claude Code setup: a PreToolUse for `Bash` running `true`. */
export const claudeCodeProbe: AgentProbe = {
  event: (cwd) => ({ ...probeCommon(cwd, 'PreToolUse'), tool_name: 'Bash', tool_input: { command: 'true' }, tool_use_id: 'hookbox-doctor-probe' }),
  timeoutUnitMs: 1000,
};
