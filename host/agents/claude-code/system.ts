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
      locked: 'nothing that switches hookbox off (measured with 2.1.328: "disableAllHooks": true in the project\'s local and the user\'s settings, the model writing it through Bash, curl | sh still denied); a developer can add no hooks of their own',
      unlocked:
        "hookbox's managed entries keep running under a lower \"disableAllHooks\": true (measured with 2.1.328: curl | sh still denied without the lock too), but a developer's and a project's own hooks run beside them and answer the same calls (one may rewrite a tool's input)",
    },
  });
}
