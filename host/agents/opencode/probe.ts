import type { AgentProbe } from '../agent-bridge.ts';

/** `hookbox doctor`'s probe of an OpenCode setup: a `tool.execute.before` for `bash` running `true`, as hookbox's plugin sends it. */
export const openCodeProbe: AgentProbe = {
  event: (cwd) => ({ hook_event_name: 'tool.execute.before', session_id: 'hookbox-doctor-probe', cwd, tool_name: 'bash', tool_call_id: 'hookbox-doctor-probe', input: { command: 'true' } }),
  // OpenCode times no plugin: the plugin's own deadline (ms) is the only one.
  timeoutUnitMs: 1,
};
