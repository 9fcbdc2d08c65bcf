import type { AgentProbe } from '../agent-bridge.ts';
import { probeCommon } from '../probe-parts.ts';

/** `hookbox doctor`'s probe of a Gemini CLI setup: a BeforeTool for `run_shell_command` running `true`. */
export const geminiProbe: AgentProbe = {
  event: (cwd) => ({ ...probeCommon(cwd, 'BeforeTool'), timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command: 'true' } }),
  // Gemini CLI's hook timeout is in milliseconds.
  timeoutUnitMs: 1,
};
