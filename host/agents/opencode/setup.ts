import path from 'node:path';
import { noSystemScope } from '../system-setup.ts';
import type { AgentDetect, AgentSetup, SetupScope } from '../agent-bridge.ts';
import { pluginFileSetup } from '../plugin-file.ts';

/** An agent's user config folder: `$XDG_CONFIG_HOME/<name>`, else `<home>/.config/<name>` (OpenCode's `opencode`, Kilo's `kilo`). */
export function xdgConfigDir(home: string, name: string): string {
  const xdg = process.env.XDG_CONFIG_HOME;
  return path.join(xdg !== undefined && xdg !== '' ? path.resolve(xdg) : path.join(home, '.config'), name);
}

/** Where one agent of OpenCode's plugin API loads hookbox's plugin from, and what it is called. */
export interface OpenCodeSetupSpec {
  readonly label: string;
  readonly name: string;
  /** The project folder holding the plugin folder (`.opencode`) and the user config folder's name (`opencode`). */
  readonly projectFolder: string;
  readonly configDirName: string;
  /** The plugin folder's name inside either (OpenCode's `plugin`, Kilo's `plugins`: each loads both, this is the one its docs use). */
  readonly pluginFolder: string;
  /** Every plugin folder the agent loads, relative to the project folder and to the user config folder. */
  readonly pluginFolders: readonly string[];
  readonly detect: AgentDetect;
  /** The factory the plugin module exports, and the module's path in the package. */
  readonly factory: string;
  readonly module: string;
  readonly tradeOff: string;
}

/** The setup of an agent of OpenCode's plugin API: one plugin file, `<project>/<projectFolder>/<pluginFolder>/hookbox.js` or the user's. */
export function openCodeFormatSetup(spec: OpenCodeSetupSpec): AgentSetup {
  const base = (scope: SetupScope): string => (scope.kind === 'project' ? path.join(scope.dir, spec.projectFolder) : xdgConfigDir(scope.home, spec.configDirName));
  const file = (scope: SetupScope): string => path.join(base(scope), spec.pluginFolder, 'hookbox.js');
  const pluginFolders = (scope: SetupScope): string[] => spec.pluginFolders.map((folder) => path.join(base(scope), folder));
  return {
    ...pluginFileSetup({ label: spec.label, name: spec.name, detect: spec.detect, file, pluginFolders, factory: spec.factory, exportAs: 'export const HookboxPlugin =', tradeOff: spec.tradeOff }),
    plugin: { module: spec.module },
    system: noSystemScope(`no machine-wide plugin folder of ${spec.label} was measured here`, `hookbox setup ${spec.name} --user (the user's plugin) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change it, but the developer can`),
  };
}

/** OpenCode's hookbox plugin: `.opencode/plugin/hookbox.js` of a project, or the user's (`$XDG_CONFIG_HOME/opencode/plugin/hookbox.js`). */
export const openCodeSetup: AgentSetup = openCodeFormatSetup({
  label: 'OpenCode',
  name: 'opencode',
  projectFolder: '.opencode',
  configDirName: 'opencode',
  pluginFolder: 'plugin',
  pluginFolders: ['plugin', 'plugins'],
  detect: { folders: ['.opencode'], commands: ['opencode'] },
  factory: 'hookboxOpenCodePlugin',
  module: 'host/agents/opencode/plugin.mjs',
  tradeOff:
    "OpenCode runs hookbox's plugin in its own process: each event goes to `hookbox serve` over its socket (with no server, to a `hookbox hook opencode` process deciding in-process). OpenCode gives a plugin no deadline (a hung plugin hangs the run), so the plugin keeps its own and answers closed past it, or on any error. A blocked prompt shows in `opencode run` only as \"UnknownError\". OpenCode's first run in a project installs `@opencode-ai/plugin` from the npm registry into `.opencode/`.",
});
