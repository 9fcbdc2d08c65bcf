import type { AgentProbe } from '../agent-bridge.ts';
import { probeCommon } from '../probe-parts.ts';

/** `hookbox doctor`'s probe of a Qwen Code setup: a PreToolUse for `run_shell_command` running `true`. */
export const qwenProbe: AgentProbe = {
  event: (cwd) => ({ ...probeCommon(cwd, 'PreToolUse'), tool_name: 'run_shell_command', tool_input: { command: 'true' }, tool_use_id: 'hookbox-doctor-probe' }),
  // Qwen Code 0.24.4 reads a hook's timeout in seconds (values of 1000 and more as milliseconds).
  timeoutUnitMs: 1000,
};
