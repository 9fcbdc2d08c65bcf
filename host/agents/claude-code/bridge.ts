import path from 'node:path';
import type { AgentBridge, AgentSeamEvent } from '../agent-bridge.ts';
import { claudeCodeToolResponse, claudeFormatBridge } from '../claude-format/bridge.ts';
import { CLAUDE_CODE_SEAM_EVENTS } from './protocol.ts';
import { claudeCodeProbe } from './probe.ts';
import { claudeCodeSetup } from './setup.ts';
import { fromClaudeCodeTool } from './tools.ts';
import { CLAUDE_CODE_REWRITES } from './rewrites.ts';

/**
 * A replaced result as Claude Code 2.1.328 takes it: `updatedToolOutput`
 * ("replaces the tool output before it is sent to the model", for every
 * tool; `updatedMCPToolOutput` is MCP-only and was ignored for Bash). It is
 * honoured only in the tool's own output shape — measured: Bash
 * `{stdout, stderr, interrupted, isImage}` and Read `{type: "text", file:
 * {filePath, content, numLines, startLine, totalLines}}` reached the model
 * replaced; a plain string for Bash was ignored and the original went
 * through. Other tools' shapes were not measured, so their replacement is a
 * block.
 */
function replacedOutput(event: AgentSeamEvent<'tools/post-execute'>, content: string): Record<string, unknown> | undefined {
  const { toolName, arguments: args } = event.payload;
  if (event.event !== 'PostToolUse') return undefined;
  if (toolName === 'bash') return { stdout: content, stderr: '', interrupted: false, isImage: false };
  if (toolName !== 'read_file' || typeof args.path !== 'string') return undefined;
  const lines = content.split('\n').length;
  return { type: 'text', file: { filePath: path.resolve(event.cwd, args.path), content, numLines: lines, startLine: 1, totalLines: lines } };
}

/** Claude Code (`claude`, 2.1.x): command and http hooks in `.claude/settings.json`. */
export const claudeCodeBridge: AgentBridge<'claude-code'> = claudeFormatBridge({
  name: 'claude-code',
  label: 'Claude Code',
  table: CLAUDE_CODE_SEAM_EVENTS,
  fromTool: fromClaudeCodeTool,
  fromToolResponse: claudeCodeToolResponse,
  replacedOutput,
  replaceable: new Set(['bash', 'read_file']),
  rewrites: CLAUDE_CODE_REWRITES,
  projectDirVariable: 'CLAUDE_PROJECT_DIR',
  setup: claudeCodeSetup,
  probe: claudeCodeProbe,
});
