import type { AgentBridge } from '../agent-bridge.ts';
import { openCodeFormatBridge } from '../opencode/bridge.ts';
import { openCodeProbe } from '../opencode/probe.ts';
import { KILO_SEAM_EVENTS } from './protocol.ts';
import { kiloSetup } from './setup.ts';
import { KILO_REWRITES, fromKiloTool } from './tools.ts';

/**
 * Kilo CLI (`@kilocode/cli`, 7.7.x): an OpenCode fork with OpenCode's plugin
 * API, so OpenCode's bridge with Kilo's tools (a background process is a
 * shell command) and its plugin folder, `.kilo/plugins/`. Its probe is
 * OpenCode's: the same `bash` tool, the same plugin event.
 */
export const kiloBridge: AgentBridge<'kilo'> = openCodeFormatBridge({
  name: 'kilo',
  label: 'Kilo CLI',
  table: KILO_SEAM_EVENTS,
  fromTool: fromKiloTool,
  rewrites: KILO_REWRITES,
  setup: kiloSetup,
  probe: openCodeProbe,
});
