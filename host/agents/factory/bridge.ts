import type { AgentBridge } from '../agent-bridge.ts';
import { claudeFormatBridge } from '../claude-format/bridge.ts';
import { denyWay } from '../tool-rewrite.ts';
import { FACTORY_SEAM_EVENTS } from './protocol.ts';
import { factoryProbe } from './probe.ts';
import { factorySetup } from './setup.ts';
import { fromFactoryTool, fromFactoryToolResponse } from './tools.ts';

/**
 * Factory Droid (`droid`, 0.225.x): Claude-format command hooks in
 * `.factory/settings.json`, events without `tool_use_id`. It takes no
 * replaced tool output (measured: `updatedToolOutput` was ignored), so a
 * replacement is a block.
 */
export const factoryBridge: AgentBridge<'factory'> = claudeFormatBridge({
  name: 'factory',
  label: 'Factory Droid',
  table: FACTORY_SEAM_EVENTS,
  fromTool: fromFactoryTool,
  fromToolResponse: fromFactoryToolResponse,
  replaceable: new Set(),
  // Until a real run shows the binary applies the Claude format's `updatedInput`, a rewrite is a deny (never run unrewritten).
  rewrites: denyWay('it is not measured to apply a hook\'s updatedInput'),
  projectDirVariable: 'FACTORY_PROJECT_DIR',
  setup: factorySetup,
  probe: factoryProbe,
});
