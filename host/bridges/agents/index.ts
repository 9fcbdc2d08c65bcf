export type {
  AgentAnswer,
  AgentBridge,
  AgentEventMapping,
  AgentSeamEvent,
  AgentSetup,
  DoctorFinding,
  SetupVerifyContext,
  ParsedAgentEvent,
  SetupChange,
  SetupEdit,
  SetupFinish,
  SetupFinishContext,
  SetupOptions,
  SetupScope,
  SetupTransport,
} from './agent-bridge.ts';
export { AGENT_BRIDGES, agentBridge, agentNames } from './registry.ts';
export { CLAUDE_CODE_EVENTS, claudeCodeBridge } from './claude-code.ts';
export { isHookboxHandler } from './claude-code-setup.ts';
export { SESSION_ID_PATTERN, invalidEvent, safeContext, safeText } from './event-input.ts';
export { CODEX_EVENTS, codexBridge } from './codex.ts';
export { GEMINI_EVENTS, geminiBridge } from './gemini.ts';
export { AGENT_MARGIN_MS, HOOK_CLIENT_DEFAULT_DEADLINE_MS, agentAnswerTimeoutMs, hookClientDeadlineMs } from './answer-deadline.ts';
