// Runs inside QuickJS (ES2020): no Object.hasOwn and friends.
import { isHookDefinition } from '../define-hook.ts';

/** What the engine reads at pre-initialization: wasm export name → function. */
export type ExportTable = Record<string, () => unknown>;

/**
 * Turns a hook module's namespace into its export table: a `defineHook`
 * default export contributes one export per handler (`pre_tool`, …); every
 * other export must be a function and becomes an export of its own name
 * (extism-js style). Throws, failing the build, on anything else.
 */
export function collectExports(namespace: Record<string, unknown>): ExportTable {
  const table: ExportTable = {};
  const add = (name: string, fn: () => unknown) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`export "${name}" is not a plain identifier`);
    if (Object.prototype.hasOwnProperty.call(table, name)) throw new TypeError(`export "${name}" is defined twice`);
    table[name] = fn;
  };
  for (const name of Object.keys(namespace).sort()) {
    const value = namespace[name];
    if (name === 'default' && isHookDefinition(value)) {
      for (const [exportName, fn] of Object.entries(value.exports)) add(exportName, fn);
    } else if (name === 'default') {
      throw new TypeError('export "default" is not a hook: use `export default defineHook({...})`');
    } else if (typeof value === 'function') {
      add(name, value as () => unknown);
    } else {
      throw new TypeError(`export "${name}" is not a function (every export of a hook module becomes a wasm export)`);
    }
  }
  return table;
}
