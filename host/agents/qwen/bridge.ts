import type { AgentBridge } from '../agent-bridge.ts';
import { claudeFormatBridge } from '../claude-format/bridge.ts';
import { denyWay } from '../tool-rewrite.ts';
import { QWEN_SEAM_EVENTS } from './protocol.ts';
import { qwenProbe } from './probe.ts';
import { qwenSetup } from './setup.ts';
import { fromQwenTool, fromQwenToolResponse } from './tools.ts';

/**
 * Qwen Code (`qwen`, 0.24.x): Claude-format command hooks in
 * `.qwen/settings.json`. It takes no replaced tool output (measured:
 * `updatedToolOutput` was ignored), so a replacement is a block.
 */
export const qwenBridge: AgentBridge<'qwen'> = claudeFormatBridge({
  name: 'qwen',
  label: 'Qwen Code',
  table: QWEN_SEAM_EVENTS,
  fromTool: fromQwenTool,
  fromToolResponse: fromQwenToolResponse,
  replaceable: new Set(),
  // Until a real run shows the binary applies the Claude format's `updatedInput`, a rewrite is a deny (never run unrewritten).
  rewrites: denyWay('it is not measured to apply a hook\'s updatedInput'),
  // Measured: Qwen sends UserPromptSubmit with an empty prompt before each model call after a tool result.
  isFollowUpPrompt: (prompt) => prompt === '',
  projectDirVariable: 'QWEN_PROJECT_DIR',
  setup: qwenSetup,
  probe: qwenProbe,
});
