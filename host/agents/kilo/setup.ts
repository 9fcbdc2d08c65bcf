import type { AgentSetup } from '../agent-bridge.ts';
import { openCodeFormatSetup } from '../opencode/setup.ts';

/** Kilo CLI's hookbox plugin: `.kilo/plugins/hookbox.js` of a project, or the user's (`$XDG_CONFIG_HOME/kilo/plugins/hookbox.js`). */
export const kiloSetup: AgentSetup = openCodeFormatSetup({
  label: 'Kilo CLI',
  name: 'kilo',
  projectFolder: '.kilo',
  configDirName: 'kilo',
  pluginFolder: 'plugins',
  pluginFolders: ['plugins', 'plugin'],
  detect: { folders: ['.kilo'], commands: ['kilo'] },
  factory: 'hookboxKiloPlugin',
  module: 'host/agents/kilo/plugin.mjs',
  tradeOff:
    "Kilo CLI runs hookbox's plugin in its own process (OpenCode's plugin API): each event goes to `hookbox serve` over its socket (with no server, to a `hookbox hook kilo` process deciding in-process). Kilo gives a plugin no deadline (a hung plugin hangs the run), so the plugin keeps its own and answers closed past it, or on any error. A blocked prompt shows in `kilo run` only as \"UnknownError\". Kilo loads `.kilo/plugins/` and `.kilo/plugin/` (and `.kilocode/`), not OpenCode's `.opencode/`.",
});
