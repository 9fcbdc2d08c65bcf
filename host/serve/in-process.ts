import type { AgentAnswer } from '../agents/index.ts';
import { LOOP_DEFAULTS } from '../loop/defaults.ts';
import { agentBridge } from '../agents/index.ts';
import { decideAgentEvent } from './decide.ts';
import { loadServedHooks } from './served-hooks.ts';
import { SessionTable } from './session-table.ts';

/**
 * `hookbox hook <agent>` with no server: loads the config's hooks in this
 * process, decides the one event exactly as the server would (same bus,
 * same session log, the session's state read back from it), and closes.
 * Hooks that remember across events (Var state) start fresh every time:
 * only a running `hookbox serve` keeps them. `named`: the event the command
 * line names (an agent whose events carry no name).
 */
export async function decideInProcess(
  agent: string,
  configPath: string,
  body: string,
  maxContinuations: number = LOOP_DEFAULTS.maxContinuations,
  named?: string,
): Promise<AgentAnswer> {
  const bridge = agentBridge(agent);
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch (error) {
    return bridge.failClosed(bridge.eventOnCommandLine === true ? named : /"hook_event_name"\s*:\s*"([A-Za-z]{1,40})"/.exec(body)?.[1], `stdin is not JSON (${(error as Error).message})`);
  }
  const hooks = await loadServedHooks(configPath);
  const sessions = new SessionTable({ maxSessions: 1, idleMs: Number.MAX_SAFE_INTEGER });
  try {
    const decided = await decideAgentEvent(
      bridge,
      input,
      { bus: hooks.bus, sessions, maxContinuations, keepReplacedOriginals: hooks.keepReplacedOriginals },
      bridge.eventOnCommandLine === true ? named : undefined,
    );
    return decided.answer;
  } finally {
    sessions.closeAll();
    await hooks.close();
  }
}
