export type {
  AgentAnswer,
  AgentBridge,
  AgentEventMapping,
  AgentSeamEvent,
  AgentSetup,
  ParsedAgentEvent,
  SetupChange,
  SetupEdit,
  SetupScope,
  SetupTransport,
} from './agent-bridge.ts';
export { AGENT_BRIDGES, agentBridge, agentNames } from './registry.ts';
export { CLAUDE_CODE_EVENTS, claudeCodeBridge } from './claude-code.ts';
export { isHookboxHandler } from './claude-code-setup.ts';
export { SESSION_ID_PATTERN, invalidEvent, safeContext, safeText } from './event-input.ts';
