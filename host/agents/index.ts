export type {
  AgentAnswer,
  AgentBridge,
  AgentDetect,
  AgentEventMapping,
  AgentEventRow,
  AgentProbe,
  SeamEventTable,
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
  ProtectedPath,
  SetupScope,
  SetupTransport,
} from './agent-bridge.ts';
export { AGENT_BRIDGES, AGENT_NAMES, agentBridge, agentNames, isAgentName } from './registry.ts';
export type { AgentName } from './registry.ts';
export { detectAgents, detectionLooksFor } from './detect.ts';
export { agentProtectedPaths } from './protected-paths.ts';
export type { DetectedAgent } from './detect.ts';
export { claudeCodeBridge } from './claude-code/bridge.ts';
export { CLAUDE_CODE_EVENTS, CLAUDE_CODE_SEAM_EVENTS } from './claude-code/protocol.ts';
export { isHookboxHandler } from './claude-code/setup.ts';
export { SESSION_ID_PATTERN, invalidEvent, safeContext, safeText } from './event-input.ts';
export { codexBridge } from './codex/bridge.ts';
export { CODEX_EVENTS, CODEX_SEAM_EVENTS } from './codex/protocol.ts';
export { geminiBridge } from './gemini/bridge.ts';
export { GEMINI_EVENTS, GEMINI_SEAM_EVENTS } from './gemini/protocol.ts';
export { qwenBridge } from './qwen/bridge.ts';
export { factoryBridge } from './factory/bridge.ts';
export { copilotBridge } from './copilot/bridge.ts';
export { clineBridge } from './cline/bridge.ts';
export { FACTORY_EVENTS, FACTORY_SEAM_EVENTS } from './factory/protocol.ts';
export { QWEN_EVENTS, QWEN_SEAM_EVENTS } from './qwen/protocol.ts';
export { claudeFormatBridge } from './claude-format/bridge.ts';
export type { ClaudeFormatDialect } from './claude-format/bridge.ts';
export { AGENT_MARGIN_MS, HOOK_CLIENT_DEFAULT_DEADLINE_MS, agentAnswerTimeoutMs, hookClientDeadlineMs } from './answer-deadline.ts';
export { eventRows, firstEvents } from './bridge-parts.ts';
export { TOOL_PROTOCOLS } from './tool-names.ts';
export type { ToolProtocol } from './tool-names.ts';
export { systemOriginalPath } from './system-setup.ts';
export type { ManagedSystemSetup, NoSystemSetup, SystemInspection, SystemOriginal, SystemSetup } from './system-setup.ts';
