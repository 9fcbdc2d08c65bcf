import type { AgentSetup } from '../agent-bridge.ts';
import { isHookboxCommand } from '../hook-groups.ts';
import { type ManagedSystemSetup, jsonSystemSetup } from '../system-setup.ts';

/**
 * Gemini CLI's system settings (its `getSystemSettingsPath`, 0.61.0):
 * `/etc/gemini-cli/settings.json` on Linux, `/Library/Application
 * Support/GeminiCli/settings.json` on macOS, overriding user and workspace
 * settings key by key; hook lists of every scope are concatenated.
 */
export function geminiSystem(own: Pick<AgentSetup, 'apply' | 'remove'>): ManagedSystemSetup {
  return jsonSystemSetup({
    files: { linux: '/etc/gemini-cli/settings.json', darwin: '/Library/Application Support/GeminiCli/settings.json' },
    setup: own,
    events: ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent'],
    isOurs: (handler) => typeof handler === 'object' && handler !== null && isHookboxCommand((handler as Record<string, unknown>).command, 'gemini'),
    lock: [{ path: ['hooksConfig', 'enabled'], value: true }],
    lockRefuses: 'nothing of a developer\'s own: Gemini CLI has no "managed hooks only" switch, so user, workspace and extension hooks still run beside hookbox\'s',
    lowerScope: {
      locked:
        'a workspace or user "hooksConfig.enabled": false is overridden by the system value (measured with 0.61.0: curl | sh still denied); but "hooksConfig.disabled" is merged as a union across scopes, so a lower scope naming hookbox\'s hook ("hookbox") switches it off, and an untrusted folder runs no settings hooks at all (Gemini CLI 0.61.0 source)',
      unlocked: 'a workspace or user "hooksConfig.enabled": false switches every hook off, hookbox\'s system entries too (measured with 0.61.0: curl | sh ran); "hooksConfig.disabled" naming "hookbox" switches it off',
    },
  });
}
