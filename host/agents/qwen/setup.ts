import type { AgentSetup, SetupTransport } from '../agent-bridge.ts';
import { noSystemScope } from '../system-setup.ts';
import { claudeFormatSetup } from '../claude-format/setup.ts';

function tradeOff(_transport: SetupTransport['kind']): string {
  return 'command transport: Qwen Code runs `hookbox hook qwen` per event; it asks `hookbox serve` over its socket and, with no server, evaluates the hooks in-process. Qwen Code lets a call through when a hook crashes or times out (fails open), so the client answers before Qwen\'s timeout (written in seconds, above the client\'s own deadline), and answers closed (deny, block, withhold) on any error of its own.';
}

/** Qwen Code's settings: `.qwen/settings.json` of a project, or `~/.qwen/settings.json` (`$QWEN_HOME` moves the latter). */
export const qwenSetup: AgentSetup = claudeFormatSetup({
  agent: 'qwen',
  label: 'Qwen Code',
  folder: '.qwen',
  commands: ['qwen'],
  // All six are in the 0.24.4 bundle; SubagentStart/Stop and Notification measured headless (README, "Lifecycle events").
  lifecycle: ['SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'PermissionRequest', 'Notification'],
  blockOnFailure: false,
  // Qwen's http hooks were not measured here: until they are, setup writes none.
  http: 'Qwen Code has no http hooks hookbox writes (not measured here); use --transport command',
  tradeOff,
  // Qwen Code is a Gemini CLI fork and may read system settings like it; not measured here, so hookbox writes none.
  system: () => noSystemScope('no machine-wide settings file of Qwen Code was measured here', "hookbox setup qwen --user (the user's settings) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change them, but the developer can"),
});
