import type { AgentProbe } from '../agent-bridge.ts';

/** `hookbox doctor`'s probe of a pi setup: a `tool_call` for `bash` running `true`, as hookbox's extension sends it. */
export const piProbe: AgentProbe = {
  event: (cwd) => ({ hook_event_name: 'tool_call', session_id: 'hookbox-doctor-probe', cwd, tool_name: 'bash', tool_call_id: 'hookbox-doctor-probe', input: { command: 'true' } }),
  // pi times no extension: the extension's own deadline (ms) is the only one.
  timeoutUnitMs: 1,
};
