import { fromProtocolToolInput, toProtocolToolName } from '../agents/tool-names.ts';
import type { ToolProtocol } from './protocol.ts';

/** The call an imported hook was asked about, in hookbox's terms (its rewrite is read back onto it). */
export interface ProtocolCall {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly cwd: string;
}

/**
 * A Claude Code / Codex hook's `updatedInput` → hookbox's complete new
 * arguments: the reverse of the tool input the hook was shown
 * (`toProtocolToolInput`), by the same table the agents' bridges read
 * (`Bash {command, timeout}` → `bash {command, timeoutMs}`, `Write
 * {file_path, content}` → `write_file {path, content}`). An input that does
 * not read back as the same hookbox tool is a problem, named.
 */
export function rewrittenArguments(protocol: ToolProtocol, call: ProtocolCall, updatedInput: Record<string, unknown>): { readonly arguments: Record<string, unknown> } | { readonly problem: string } {
  const theirs = toProtocolToolName(protocol, call.toolName);
  const mapped = fromProtocolToolInput(protocol, theirs, updatedInput, call.cwd);
  if (mapped.toolName !== call.toolName) {
    return { problem: `output.hookSpecificOutput.updatedInput: not a ${theirs} input hookbox reads back as ${call.toolName} (for ${call.toolName} it needs ${expected(call.toolName)})` };
  }
  return { arguments: { ...mapped.arguments } };
}

function expected(toolName: string): string {
  if (toolName === 'bash') return 'a "command" string';
  if (toolName === 'write_file') return '"file_path" and "content" strings';
  return 'a "file_path" string';
}
