import type { AgentSetup, SetupTransport } from '../agent-bridge.ts';
import { claudeFormatSetup } from '../claude-format/setup.ts';
import { foreignCopilotHookFindings } from '../copilot/foreign-hook-files.ts';
import { claudeCodeSystem } from './system.ts';

export { isHookboxHandler } from '../claude-format/setup.ts';

function tradeOff(transport: SetupTransport['kind']): string {
  return transport === 'command'
    ? 'command transport: Claude Code runs `hookbox hook claude-code` per event; it asks `hookbox serve` over its socket and, with no server, evaluates the hooks in-process (slower, and hooks that remember across events start fresh each time). Past its deadline, or on any error, the client answers closed (deny, block, withhold), and `onFailure: "block"` makes Claude Code block when the client itself fails: fails closed.'
    : 'http transport: faster (no process per event); the token is written to .claude/settings.local.json (not committed), never to settings.json. With `hookbox serve` down, `onFailure: "block"` makes Claude Code refuse tool calls, prompts and results (fails closed) — but a port squatter (another local process on the port) gets every event and the token, and its "allow" is obeyed. Use --transport command where that matters.';
}

const claudeSettings: AgentSetup = claudeFormatSetup({
  agent: 'claude-code',
  label: 'Claude Code',
  folder: '.claude',
  // Copilot CLI reads `.claude/settings.json` too, but has its own setup (`hookbox setup copilot`): its command counts there.
  commands: ['claude'],
  // Every lifecycle event: all six fired headless but Notification (README, "Lifecycle events").
  lifecycle: ['SessionEnd', 'PreCompact', 'SubagentStart', 'SubagentStop', 'PermissionRequest', 'Notification'],
  blockOnFailure: true,
  http: true,
  localFile: 'settings.local.json',
  // Measured with 2.1.328: started in src/ of a git repository whose root holds .claude/settings.json, it ran none of its hooks.
  startFolderOnly: 'Claude Code reads .claude/settings.json only in the folder it is started in, never one above (measured with 2.1.328, in a git repository too)',
  tradeOff,
  system: claudeCodeSystem,
});

/**
 * Claude Code's settings: `.claude/settings.json` of a project, or
 * `~/.claude/settings.json`. Copilot CLI runs a project's Claude Code
 * entries too, so doctor also flags a Copilot hook file hookbox did not
 * write (a look-alike of hookbox's entries planted beside them).
 */
export const claudeCodeSetup: AgentSetup = {
  ...claudeSettings,
  verify: (context) => [...(claudeSettings.verify?.(context) ?? []), ...foreignCopilotHookFindings(context.scope)],
};
