import { ConfigError } from '../../errors.ts';
import type { AgentBridge } from './agent-bridge.ts';
import { claudeCodeBridge } from './claude-code.ts';
import { codexBridge } from './codex.ts';
import { geminiBridge } from './gemini.ts';

/**
 * Every agent hookbox serves, by the name used on the command line and in
 * URLs. A new agent is one module implementing `AgentBridge` and one line
 * here; `serve`, `hook` and `setup` dispatch through this table.
 */
export const AGENT_BRIDGES: Readonly<Record<string, AgentBridge>> = {
  [claudeCodeBridge.name]: claudeCodeBridge,
  [codexBridge.name]: codexBridge,
  [geminiBridge.name]: geminiBridge,
};

/** The names of every registered agent, for help texts and errors. */
export function agentNames(): string[] {
  return Object.keys(AGENT_BRIDGES);
}

/** The bridge for an agent name, or a `ConfigError` naming the agents there are. */
export function agentBridge(name: string): AgentBridge {
  const bridge = Object.hasOwn(AGENT_BRIDGES, name) ? AGENT_BRIDGES[name] : undefined;
  if (bridge === undefined) throw new ConfigError(`unknown agent "${name}" (expected one of: ${agentNames().join(', ')})`);
  return bridge;
}
