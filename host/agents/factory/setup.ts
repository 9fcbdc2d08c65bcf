import type { AgentSetup, SetupTransport } from '../agent-bridge.ts';
import { noSystemScope } from '../system-setup.ts';
import { claudeFormatSetup } from '../claude-format/setup.ts';

function tradeOff(_transport: SetupTransport['kind']): string {
  return 'command transport: Factory Droid runs `hookbox hook factory` per event; it asks `hookbox serve` over its socket and, with no server, evaluates the hooks in-process. Factory lets a call through when a hook crashes or times out (fails open), so the client answers before Factory\'s timeout (seconds, above the client\'s own deadline), and answers closed (deny, block, withhold) on any error of its own.';
}

/** Factory Droid's settings: `.factory/settings.json` of a project, or `~/.factory/settings.json` (`$FACTORY_HOME_OVERRIDE` moves the home). */
export const factorySetup: AgentSetup = claudeFormatSetup({
  agent: 'factory',
  label: 'Factory Droid',
  folder: '.factory',
  commands: ['droid'],
  // The lifecycle events the 0.225.2 binary names (no SubagentStart, no PermissionRequest); SessionEnd measured headless.
  lifecycle: ['SessionEnd', 'PreCompact', 'SubagentStop', 'Notification'],
  blockOnFailure: false,
  // Factory's http hooks were not measured here: until they are, setup writes none.
  http: 'Factory Droid has no http hooks hookbox writes (not measured here); use --transport command',
  tradeOff,
  system: () => noSystemScope('no machine-wide settings file of Factory Droid was measured here', "hookbox setup factory --user (the user's settings) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change them, but the developer can"),
});
