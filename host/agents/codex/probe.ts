import type { AgentProbe } from '../agent-bridge.ts';
import { probeCommon } from '../probe-parts.ts';

/** `hookbox doctor`'s probe of a Codex setup: a PreToolUse for `Bash` running `true` (Codex names no project variable). */
export const codexProbe: AgentProbe = {
  event: (cwd) => ({
    ...probeCommon(cwd, 'PreToolUse'),
    model: 'probe',
    turn_id: 'probe',
    tool_name: 'Bash',
    tool_input: { command: 'true' },
    tool_use_id: 'hookbox-doctor-probe',
  }),
  timeoutUnitMs: 1000,
};
