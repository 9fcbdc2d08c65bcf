import type { AgentProbe } from '../agent-bridge.ts';

/** `hookbox doctor`'s probe of a Cline setup: a PreToolUse for `run_commands` running `true`, in Cline's own shape (the event named on the command line). */
export const clineProbe: AgentProbe = {
  event: (cwd) => ({
    clineVersion: '',
    hookName: 'tool_call',
    timestamp: new Date().toISOString(),
    taskId: 'hookbox-doctor-probe',
    workspaceRoots: [cwd],
    userId: 'hookbox-doctor',
    tool_call: { id: 'hookbox-doctor-probe', name: 'run_commands', input: { commands: ['true'] } },
    preToolUse: { toolName: 'run_commands', parameters: { commands: '["true"]' } },
  }),
  // Cline has no per-hook timeout to read: setup writes none, and doctor's probe waits its default.
  timeoutUnitMs: 1000,
  eventName: 'PreToolUse',
};
