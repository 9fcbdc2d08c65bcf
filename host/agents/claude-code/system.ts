import type { AgentSetup } from '../agent-bridge.ts';
import { isHookboxHandler } from '../claude-format/setup.ts';
import { type ManagedSystemSetup, jsonSystemSetup } from '../system-setup.ts';

/**
 * Claude Code's managed settings: `managed-settings.json`, above user,
 * project and local settings (read from `/etc/claude-code/` on Linux and
 * `/Library/Application Support/ClaudeCode/` on macOS, as its binary 2.1.328
 * names them; MDM and registry policy stores are the platform mechanisms
 * beside it). `allowManagedHooksOnly` is honoured only from managed settings.
 */
export function claudeCodeSystem(own: Pick<AgentSetup, 'apply' | 'remove'>): ManagedSystemSetup {
  return jsonSystemSetup({
    files: { linux: '/etc/claude-code/managed-settings.json', darwin: '/Library/Application Support/ClaudeCode/managed-settings.json' },
    setup: own,
    events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'],
    isOurs: isHookboxHandler,
    lock: [{ path: ['allowManagedHooksOnly'], value: true }],
    lockRefuses:
      "user, project and local hooks (a developer's own, a project's hookbox entries) and the hooks of plugins the user installed; only managed hooks and those of plugins the managed settings enable run",
    lowerScope: {
      locked: 'nothing that switches hookbox off: a lower "disableAllHooks": true is read as allowManagedHooksOnly (measured with 2.1.328: the managed entries still run); a developer can add no hooks of their own',
      unlocked: "a developer's and a project's own hooks run beside hookbox's; Claude Code's source reads a lower \"disableAllHooks\": true as allowManagedHooksOnly, so hookbox's managed entries should keep running (measured only with the lock)",
    },
  });
}
