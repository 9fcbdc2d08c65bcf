export {
  EVENT_FOR_SEAM,
  PROTOCOL_LABEL,
  SEAM_FOR_EVENT,
  SESSION_START_SOURCES,
  TOOL_DEFAULT_TIMEOUT_MS,
  TOOL_PROTOCOLS,
  isToolEventName,
} from './protocol.ts';
export type { ProtocolResult, ToolEventName, ToolProtocol } from './protocol.ts';
export {
  BUILTIN_TOOLS,
  TOOL_NAMES,
  protocolToolNames,
  fromProtocolToolInput,
  fromProtocolToolName,
  fromProtocolToolResponse,
  toProtocolToolInput,
  toProtocolToolName,
  toProtocolToolResponse,
} from '../agents/tool-names.ts';
export type { OurToolCall } from '../agents/tool-names.ts';
export { CODEX_MODEL_PLACEHOLDER, protocolInput } from './protocol-input.ts';
export { protocolNotices, protocolOutcome } from './protocol-output.ts';
export { protocolCodec } from './wasm-codec.ts';
export { runCommand } from './run-command.ts';
export type { CommandRun, RunCommandOptions } from './run-command.ts';
export { DEFAULT_SHELL_OUTPUT_BYTES, isShellHook, shellHook } from './shell-hook.ts';
export { SessionExports, detachedSession } from './hook-session.ts';
export type { ShellHookSession } from './hook-session.ts';
export { ClaudeTranscript, claudeTranscriptPath } from './claude-transcript.ts';
export { parseEnvFile } from './env-file.ts';
export type { EnvFileResult } from './env-file.ts';
export { checkCommandPrograms, onPath } from './program-check.ts';
export type { MissingProgram, ProgramCheck } from './program-check.ts';
export type { ShellHook, ShellHookOptions } from './shell-hook.ts';
export { convertSourceMatcher, convertToolMatcher } from './matcher.ts';
export type { ConvertedToolMatcher } from './matcher.ts';
export { importToolHooks, importedConfig } from './import-hooks.ts';
export type { ImportContext, ImportResult, ImportedHook, MissingHookProgram, ShellHookEntry, SkippedHook } from './import-hooks.ts';
export type { PermissionsEntry, RefusedSetting } from './import-settings.ts';
export { claudeContext, importClaudeSettingsFile, importCodexHooksFile } from './import-files.ts';
export { importPolicy, renderImportReport } from './import-report.ts';
export { PERMISSION_BEHAVIOURS, PermissionRulesSchema, commandParts, compileRule } from './permission-rules.ts';
export type { CompiledRule, PermissionBehaviour, PermissionRules } from './permission-rules.ts';
export { permissionRulesHook } from './permission-hook.ts';
export type { PermissionHook } from './permission-hook.ts';
