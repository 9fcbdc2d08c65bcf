/**
 * host/agents/plugin-file.ts: the setup shared by agents that load hookbox as
 * a plugin file (pi, OpenCode) — the file's text and its reading back (a file
 * hookbox did not write, or one edited past its options, is refused with the
 * step to take), and `apply` / `remove` / `finish` on its settings.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SetupScope } from '../../host/agents/agent-bridge.ts';
import { parsePluginFile, pluginFileSetup, pluginFileText, type PluginFileSpec } from '../../host/agents/plugin-file.ts';

const spec: PluginFileSpec = {
  label: 'pi',
  name: 'pi',
  file: (scope) => path.join(scope.kind === 'project' ? scope.dir : scope.home, '.pi', 'extensions', 'hookbox.ts'),
  factory: 'hookboxPiExtension',
  exportAs: 'export default',
  tradeOff: 'pi runs the plugin in its own process',
  detect: { folders: ['.pi'], commands: ['pi'] },
};
const options = { socket: '.hookbox/serve.sock', config: 'hookbox.config.json', deadlineMs: 30_000 };
const settings = { module: 'hookbox/agents/pi', options };
const plugin = { kind: 'plugin' as const, ...settings };
const described = 'plugin hookbox/agents/pi (socket .hookbox/serve.sock, config hookbox.config.json, deadline 30000 ms)';

const FIRST = '// hookbox: written by `hookbox setup pi`; `hookbox setup pi --remove` deletes this file. The options are JSON: socket and config';
const SECOND = '// relative to the project, deadlineMs the longest one answer may take (past it the plugin answers closed).';
const IMPORT = 'import { hookboxPiExtension } from "hookbox/agents/pi";';
const fileWith = (optionsLine: string, importLine = IMPORT) => [FIRST, SECOND, importLine, optionsLine, ''].join('\n');
const EDITED = 'written by hookbox setup but edited beyond its options line; delete it and run setup again';
const BAD_OPTIONS = 'its options need socket and config (strings) and deadlineMs (an integer); delete it and run setup again';

describe('the plugin file', () => {
  it('is three lines of hookbox’s, read back to the settings it was written from', () => {
    const text = pluginFileText(spec, settings);
    expect(text).toBe(fileWith('export default hookboxPiExtension({"socket":".hookbox/serve.sock","config":"hookbox.config.json","deadlineMs":30000}, import.meta.url);'));
    expect(parsePluginFile(spec, text)).toStrictEqual({ hookbox: settings });
    const setup = pluginFileSetup(spec);
    expect(setup.fileFormat!.format({ hookbox: settings })).toBe(text);
    expect(setup.fileFormat!.parse(text)).toStrictEqual({ hookbox: settings });
    expect(setup.fileFormat!.format({})).toBeUndefined();
  });

  it('a module path with quotes and extra spaces in the export line still reads back', () => {
    const odd = { module: '/opt/my "tools"/pi.js', options };
    const text = pluginFileText(spec, odd).replace('export default hookboxPiExtension', 'export   default  hookboxPiExtension');
    expect(parsePluginFile(spec, text)).toStrictEqual({ hookbox: odd });
  });

  it('refuses a file hookbox did not write', () => {
    expect(() => parsePluginFile(spec, 'export default () => {};\n')).toThrow(
      new Error('not written by hookbox setup (its first line is not "// hookbox: written by `hookbox setup pi`…"); move it aside, hookbox will not overwrite it'),
    );
  });

  it('refuses a file edited beyond its options line', () => {
    const optionsLine = `export default hookboxPiExtension(${JSON.stringify(options)}, import.meta.url);`;
    expect(() => parsePluginFile(spec, fileWith(optionsLine, 'import { hookboxPiExtension } from \'hookbox/agents/pi\';'))).toThrow(new Error(EDITED));
    expect(() => parsePluginFile(spec, fileWith(`export const x = hookboxPiExtension(${JSON.stringify(options)}, import.meta.url);`))).toThrow(new Error(EDITED));
    expect(() => parsePluginFile(spec, FIRST)).toThrow(new Error(EDITED));
  });

  it('refuses options that are not JSON, quoting the parser', () => {
    let parserMessage = '';
    try {
      JSON.parse('{socket: 1}');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    expect(() => parsePluginFile(spec, fileWith('export default hookboxPiExtension({socket: 1}, import.meta.url);'))).toThrow(
      new Error(`its options are not JSON (${parserMessage}); delete it and run setup again`),
    );
  });

  it.each([
    { ...options, socket: 1 },
    { ...options, config: null },
    { ...options, deadlineMs: 1.5 },
    { ...options, deadlineMs: '30000' },
    { socket: 's', config: 'c' },
  ])('refuses options %j', (bad) => {
    expect(() => parsePluginFile(spec, fileWith(`export default hookboxPiExtension(${JSON.stringify(bad)}, import.meta.url);`))).toThrow(new Error(BAD_OPTIONS));
  });
});

describe('pluginFileSetup', () => {
  const setup = pluginFileSetup(spec);
  const scope: SetupScope = { kind: 'project', dir: '/work/app' };

  it('writes the file of the scope, and serves only the plugin transport', () => {
    expect(setup.settingsPath(scope)).toBe('/work/app/.pi/extensions/hookbox.ts');
    expect(setup.detect).toStrictEqual({ folders: ['.pi'], commands: ['pi'] });
    expect(setup.tradeOff('plugin')).toBe('pi runs the plugin in its own process');
    expect(setup.unsupported('plugin')).toBeUndefined();
    expect(setup.unsupported('command')).toBe('pi has no command hooks (it loads hookbox as a plugin in its own process); use --transport plugin');
    expect(() => setup.apply({}, { kind: 'command', command: 'hookbox hook pi' })).toThrow(new TypeError('pi runs plugin hooks only'));
  });

  it('adds, keeps and replaces the plugin settings', () => {
    expect(setup.apply({}, plugin)).toStrictEqual({ settings: { hookbox: settings }, changes: [{ action: 'added', where: 'plugin', what: described }] });
    expect(setup.apply({ hookbox: settings }, plugin)).toStrictEqual({ settings: { hookbox: settings }, changes: [{ action: 'unchanged', where: 'plugin', what: described }] });
    const older = { module: 'hookbox/agents/pi', options: { ...options, deadlineMs: 25_000 } };
    expect(setup.apply({ hookbox: older }, plugin)).toStrictEqual({ settings: { hookbox: settings }, changes: [{ action: 'replaced', where: 'plugin', what: described }] });
    expect(setup.apply({ hookbox: { options } }, plugin)).toStrictEqual({ settings: { hookbox: settings }, changes: [{ action: 'added', where: 'plugin', what: described }] });
  });

  it('removes the plugin settings, reporting them only when there were some', () => {
    expect(setup.remove({ hookbox: settings })).toStrictEqual({ settings: {}, changes: [{ action: 'removed', where: 'plugin', what: described }] });
    expect(setup.remove({})).toStrictEqual({ settings: {}, changes: [] });
    expect(setup.remove({ hookbox: null })).toStrictEqual({ settings: {}, changes: [] });
    expect(setup.remove({ hookbox: { options } })).toStrictEqual({ settings: {}, changes: [] });
  });

  it('tells the user to restart the agent after writing, nothing after removing', () => {
    const context = { scope, settingsFile: '/work/app/.pi/extensions/hookbox.ts', before: {}, after: { hookbox: settings } };
    expect(setup.finish!({ ...context, removing: false })).toStrictEqual({
      changes: [],
      notes: ['pi loads /work/app/.pi/extensions/hookbox.ts when it starts: restart running pi sessions'],
    });
    expect(setup.finish!({ ...context, removing: true })).toStrictEqual({ changes: [], notes: [] });
  });
});
