import type { ProtectedPath, SetupScope } from './agent-bridge.ts';
import { AGENT_BRIDGES } from './registry.ts';
import { systemOriginalPath } from './system-setup.ts';

/**
 * Every agent's protected files and folders for the given scopes, from each
 * agent's own setup module (`AgentSetup.protectedPaths`): the one list of
 * what `setup` writes and what the agent reads hooks, trust or a "disable
 * hooks" switch from — and, whatever the scopes, each agent's machine-wide
 * file (`AgentSetup.system`) with setup's record beside it. A new agent
 * cannot be registered without declaring them.
 */
export function agentProtectedPaths(scopes: readonly SetupScope[], platform: NodeJS.Platform = process.platform): ProtectedPath[] {
  const all: ProtectedPath[] = [];
  for (const bridge of Object.values(AGENT_BRIDGES)) {
    for (const scope of scopes) all.push(...bridge.setup.protectedPaths(scope));
    const system = bridge.setup.system;
    const file = system.kind === 'managed' ? system.file(platform) : undefined;
    if (file !== undefined) all.push({ path: file }, { path: systemOriginalPath(file) });
  }
  return all;
}
