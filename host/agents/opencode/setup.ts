import path from 'node:path';
import type { AgentSetup, SetupScope } from '../agent-bridge.ts';
import { pluginFileSetup } from '../plugin-file.ts';

/** OpenCode's user config folder: `$XDG_CONFIG_HOME/opencode`, else `<home>/.config/opencode`. */
export function openCodeConfigDir(home: string): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && xdg !== '' ? path.resolve(xdg) : path.join(home, '.config'), 'opencode');
}

/** OpenCode loads every file in `.opencode/plugin/` of the project and in its config folder's `plugin/`. */
function file(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.opencode', 'plugin', 'hookbox.js') : path.join(openCodeConfigDir(scope.home), 'plugin', 'hookbox.js');
}

/** OpenCode's hookbox plugin: `.opencode/plugin/hookbox.js` of a project, or the user's (`$XDG_CONFIG_HOME/opencode/plugin/hookbox.js`). */
export const openCodeSetup: AgentSetup = {
  ...pluginFileSetup({
    label: 'OpenCode',
    name: 'opencode',
    detect: { folders: ['.opencode'], commands: ['opencode'] },
    file,
    factory: 'hookboxOpenCodePlugin',
    exportAs: 'export const HookboxPlugin =',
    tradeOff:
      "OpenCode runs hookbox's plugin in its own process: each event goes to `hookbox serve` over its socket (with no server, to a `hookbox hook opencode` process deciding in-process). OpenCode gives a plugin no deadline (a hung plugin hangs the run), so the plugin keeps its own and answers closed past it, or on any error. A blocked prompt shows in `opencode run` only as \"UnknownError\". OpenCode's first run in a project installs `@opencode-ai/plugin` from the npm registry into `.opencode/`.",
  }),
  plugin: { module: 'host/agents/opencode/plugin.mjs' },
};
