import type { ProtectedPath, SetupScope } from './agent-bridge.ts';
import { AGENT_BRIDGES } from './registry.ts';

/**
 * Every agent's protected files and folders for the given scopes, from each
 * agent's own setup module (`AgentSetup.protectedPaths`): the one list of
 * what `setup` writes and what the agent reads hooks, trust or a "disable
 * hooks" switch from. A new agent cannot be registered without declaring it.
 */
export function agentProtectedPaths(scopes: readonly SetupScope[]): ProtectedPath[] {
  const all: ProtectedPath[] = [];
  for (const bridge of Object.values(AGENT_BRIDGES)) {
    for (const scope of scopes) all.push(...bridge.setup.protectedPaths(scope));
  }
  return all;
}
