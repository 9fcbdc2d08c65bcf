import type { ToolKind } from '@agentclientprotocol/sdk';
import { printable } from '../text/index.ts';

/** How an editor should present one tool call: a title and the ACP tool kind (which picks its icon). */
export interface ToolDisplay {
  readonly title: string;
  readonly kind: ToolKind;
}

const MAX_TITLE = 120;

/** One printable line of the model's argument (no control or bidi character reaches the editor's title). */
function clip(text: string): string {
  return printable(text.replace(/\s+/gu, ' ').trim(), { maxLength: MAX_TITLE });
}

function stringArgument(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The title and kind of a tool call, derived from its name and arguments.
 * Only presentation: the arguments themselves travel unchanged as `rawInput`;
 * when pre-tool hooks rewrite a call, a `tool_call_update` gives the
 * rewritten arguments' title and `rawInput` before it runs (updates.ts).
 */
export function describeToolCall(toolName: string, args: Record<string, unknown>): ToolDisplay {
  switch (toolName) {
    case 'bash': {
      const command = stringArgument(args, 'command');
      return { title: command === undefined ? 'bash' : clip(command), kind: 'execute' };
    }
    case 'read_file': {
      const path = stringArgument(args, 'path');
      return { title: path === undefined ? 'read_file' : `Read ${clip(path)}`, kind: 'read' };
    }
    case 'write_file': {
      const path = stringArgument(args, 'path');
      return { title: path === undefined ? 'write_file' : `Write ${clip(path)}`, kind: 'edit' };
    }
    case 'list_dir': {
      const path = stringArgument(args, 'path') ?? '.';
      return { title: `List ${clip(path)}`, kind: 'search' };
    }
    default:
      return { title: clip(toolName), kind: 'other' };
  }
}
