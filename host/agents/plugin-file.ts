import path from 'node:path';
import type { AgentDetect, AgentSetup, SetupEdit, SetupFinish, SetupFinishContext, SetupScope, SetupTransport } from './agent-bridge.ts';

/**
 * Setup of an agent that loads hookbox as a plugin file in its own process
 * (pi's `.pi/extensions/hookbox.ts`, OpenCode's `.opencode/plugin/hookbox.js`):
 * the file is hookbox's whole — three lines importing the plugin module
 * shipped in the package and handing it the options (socket, config,
 * deadline) — so setup writes it, `--remove` deletes it, and nothing of the
 * user's is ever inside it. Its settings, as `AgentSetup` sees them, are
 * `{hookbox: {module, options}}` (empty: no file).
 */
export interface PluginFileSpec {
  /** The agent's name in messages ("pi"). */
  readonly label: string;
  /** `hookbox setup <name>`. */
  readonly name: string;
  /** Where the file goes for a scope. */
  readonly file: (scope: SetupScope) => string;
  /** The factory the module exports (`hookboxPiExtension`) and how the file exports what it returns (`export default`). */
  readonly factory: string;
  readonly exportAs: string;
  /** What the user should know (printed by setup). */
  readonly tradeOff: string;
  /** What shows the agent is used (its folder in the project, its command on PATH). */
  readonly detect: AgentDetect;
  /** Every folder the agent loads plugin files from for a scope; absent: the file's own folder. */
  readonly pluginFolders?: (scope: SetupScope) => readonly string[];
}

/** The options the plugin module gets: paths relative to the project (two folders above the file) or absolute. */
export interface PluginOptions {
  readonly socket: string;
  readonly config: string;
  readonly deadlineMs: number;
}

/** The settings of a plugin-file agent: what its file says. */
export interface PluginSettings {
  readonly module: string;
  readonly options: PluginOptions;
}

const FIRST_LINE = '// hookbox: written by `hookbox setup';

/** The file's text for these settings. */
export function pluginFileText(spec: PluginFileSpec, settings: PluginSettings): string {
  return [
    `${FIRST_LINE} ${spec.name}\`; \`hookbox setup ${spec.name} --remove\` deletes this file. The options are JSON: socket and config`,
    `// relative to the project, deadlineMs the longest one answer may take (past it the plugin answers closed).`,
    `import { ${spec.factory} } from ${JSON.stringify(settings.module)};`,
    `${spec.exportAs} ${spec.factory}(${JSON.stringify(settings.options)}, import.meta.url);`,
    '',
  ].join('\n');
}

/** The settings a file written by `pluginFileText` holds; a file hookbox did not write is an error (setup never overwrites it). */
export function parsePluginFile(spec: PluginFileSpec, text: string): Record<string, unknown> {
  if (!text.startsWith(FIRST_LINE)) throw new Error(`not written by hookbox setup (its first line is not "${FIRST_LINE} ${spec.name}\`…"); move it aside, hookbox will not overwrite it`);
  const module = new RegExp(`^import \\{ ${spec.factory} \\} from ("(?:[^"\\\\]|\\\\.)*");$`, 'm').exec(text)?.[1];
  const options = new RegExp(`^${spec.exportAs.replace(/ /g, '\\s+')}\\s+${spec.factory}\\((\\{.*\\}), import\\.meta\\.url\\);$`, 'm').exec(text)?.[1];
  if (module === undefined || options === undefined) throw new Error('written by hookbox setup but edited beyond its options line; delete it and run setup again');
  let parsed: { module: unknown; options: unknown };
  try {
    parsed = { module: JSON.parse(module) as unknown, options: JSON.parse(options) as unknown };
  } catch (error) {
    throw new Error(`its options are not JSON (${(error as Error).message}); delete it and run setup again`);
  }
  const o = parsed.options as Record<string, unknown> | null;
  if (typeof parsed.module !== 'string' || typeof o !== 'object' || o === null || typeof o.socket !== 'string' || typeof o.config !== 'string' || !Number.isInteger(o.deadlineMs)) {
    throw new Error('its options need socket and config (strings) and deadlineMs (an integer); delete it and run setup again');
  }
  return { hookbox: { module: parsed.module, options: { socket: o.socket, config: o.config, deadlineMs: o.deadlineMs as number } } };
}

/** The plugin settings in a settings object, when there are any. */
export function pluginSettingsOf(settings: Record<string, unknown>): PluginSettings | undefined {
  const ours = settings.hookbox as PluginSettings | undefined;
  return typeof ours === 'object' && ours !== null && typeof ours.module === 'string' ? ours : undefined;
}

function describe(settings: PluginSettings): string {
  return `plugin ${settings.module} (socket ${settings.options.socket}, config ${settings.options.config}, deadline ${settings.options.deadlineMs} ms)`;
}

/** The `AgentSetup` of a plugin-file agent. */
export function pluginFileSetup(spec: PluginFileSpec): Omit<AgentSetup, 'system'> {
  return {
    detect: spec.detect,
    settingsPath: spec.file,
    // The agent loads every file of its plugin folders: a new one there runs in its process as hookbox's does.
    protectedPaths: (scope) => (spec.pluginFolders?.(scope) ?? [path.dirname(spec.file(scope))]).map((folder) => ({ path: folder, folder: true as const })),
    unsupported: (transport) => (transport === 'plugin' ? undefined : `${spec.label} has no ${transport} hooks (it loads hookbox as a plugin in its own process); use --transport plugin`),
    apply(settings: Record<string, unknown>, transport: SetupTransport): SetupEdit {
      if (transport.kind !== 'plugin') throw new TypeError(`${spec.label} runs plugin hooks only`);
      const next: PluginSettings = { module: transport.module, options: transport.options };
      const before = pluginSettingsOf(settings);
      const same = before !== undefined && JSON.stringify(before) === JSON.stringify(next);
      const action = same ? 'unchanged' : before === undefined ? 'added' : 'replaced';
      return { settings: { ...settings, hookbox: next }, changes: [{ action, where: 'plugin', what: describe(next) }] };
    },
    remove(settings: Record<string, unknown>): SetupEdit {
      const { hookbox: _ours, ...rest } = settings;
      const before = pluginSettingsOf(settings);
      return { settings: rest, changes: before === undefined ? [] : [{ action: 'removed', where: 'plugin', what: describe(before) }] };
    },
    tradeOff: () => spec.tradeOff,
    fileFormat: {
      parse: (text) => parsePluginFile(spec, text),
      format: (settings) => {
        const ours = pluginSettingsOf(settings);
        return ours === undefined ? undefined : pluginFileText(spec, ours);
      },
    },
    finish: (context: SetupFinishContext): SetupFinish => ({ changes: [], notes: context.removing ? [] : [`${spec.label} loads ${context.settingsFile} when it starts: restart running ${spec.label} sessions`] }),
  };
}
