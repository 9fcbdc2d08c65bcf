import type { AgentProbe } from '../agent-bridge.ts';

/** `hookbox doctor`'s probe of a Copilot CLI setup: a preToolUse for `bash` running `true`, in Copilot's own shape. */
export const copilotProbe: AgentProbe = {
  event: (cwd) => ({ sessionId: 'hookbox-doctor-probe', timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: { command: 'true', description: 'Check hookbox answers' } }),
  timeoutUnitMs: 1000,
  eventName: 'preToolUse',
};
