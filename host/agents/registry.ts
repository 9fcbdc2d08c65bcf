import { ConfigError } from '../errors.ts';
import type { AgentBridge } from './agent-bridge.ts';
import { claudeCodeBridge } from './claude-code/bridge.ts';
import { clineBridge } from './cline/bridge.ts';
import { codexBridge } from './codex/bridge.ts';
import { copilotBridge } from './copilot/bridge.ts';
import { factoryBridge } from './factory/bridge.ts';
import { geminiBridge } from './gemini/bridge.ts';
import { kiloBridge } from './kilo/bridge.ts';
import { openCodeBridge } from './opencode/bridge.ts';
import { piBridge } from './pi/bridge.ts';
import { qwenBridge } from './qwen/bridge.ts';

/** The name of every agent hookbox serves, as used on the command line and in URLs. */
export const AGENT_NAMES = ['claude-code', 'codex', 'gemini', 'qwen', 'factory', 'pi', 'opencode', 'kilo', 'copilot', 'cline'] as const;
/** An agent hookbox serves. */
export type AgentName = (typeof AGENT_NAMES)[number];

/**
 * Every agent's bridge, by its name. A new agent is one folder
 * (`host/agents/<name>/`) plus its name in `AGENT_NAMES` and its line here:
 * a name without a bridge, a bridge without a name, or a bridge whose `name`
 * differs from its key is a compile error. `serve`, `hook`, `setup` and
 * `doctor` dispatch through this table.
 */
export const AGENT_BRIDGES = {
  'claude-code': claudeCodeBridge,
  codex: codexBridge,
  gemini: geminiBridge,
  qwen: qwenBridge,
  factory: factoryBridge,
  pi: piBridge,
  opencode: openCodeBridge,
  kilo: kiloBridge,
  copilot: copilotBridge,
  cline: clineBridge,
} as const satisfies { readonly [N in AgentName]: AgentBridge<N> };

/** The names of every registered agent, for help texts and errors. */
export function agentNames(): string[] {
  return [...AGENT_NAMES];
}

/** Whether `name` is a registered agent. */
export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}

/** The bridge for an agent name, or a `ConfigError` naming the agents there are. */
export function agentBridge(name: string): AgentBridge {
  if (!isAgentName(name)) throw new ConfigError(`unknown agent "${name}" (expected one of: ${agentNames().join(', ')})`);
  return AGENT_BRIDGES[name];
}
