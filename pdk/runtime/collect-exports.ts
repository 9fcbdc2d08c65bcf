// Runs inside QuickJS (ES2020): no Object.hasOwn and friends.
import { isHookDefinition } from '../define-hook.ts';

/** What the engine reads at pre-initialization: wasm export name → function. */
export type ExportTable = Record<string, () => unknown>;

/** What a build accepts, quoted in every refusal so the author sees the way forward. */
const ACCEPTED =
  'accepted: `export default defineHook({...})`, exported functions (`export function greet()`), ' +
  'or CommonJS `module.exports = { greet }` / `exports.greet = function () {…}`';

/** A short description of a value for an error message ("a string", "an object with keys a, b"). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const keys = Object.keys(value as object);
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** A plain object (CommonJS `module.exports = {…}`, or `export default {…}`): its own values are the exports. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Turns a hook module's namespace into its export table: a `defineHook`
 * default export contributes one export per handler (`pre_tool`, …); every
 * other export must be a function and becomes an export of its own name
 * (extism-js style). A CommonJS module (esbuild presents `module.exports` as
 * `default` plus one named export per key) and an `export default {…}` of
 * functions count as that set of functions. Throws, failing the build, on
 * anything else, saying what was found and what is accepted.
 */
export function collectExports(namespace: Record<string, unknown>): ExportTable {
  const table: ExportTable = {};
  const add = (name: string, fn: unknown) => {
    if (table[name] === fn) return; // the same function seen twice: `module.exports.greet` and its named copy
    if (typeof fn !== 'function') {
      throw new TypeError(`export "${name}" is not a function: found ${describe(fn)} (every export of a hook module becomes a wasm export; ${ACCEPTED})`);
    }
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`export "${name}" is not a plain identifier`);
    if (Object.prototype.hasOwnProperty.call(table, name)) throw new TypeError(`export "${name}" is defined twice`);
    table[name] = fn as () => unknown;
  };
  // `__esModule` marks a module transpiled to CommonJS; it is not an export.
  const names = Object.keys(namespace)
    .filter((name) => name !== '__esModule')
    .sort();
  for (const name of names) {
    const value = namespace[name];
    if (name !== 'default') add(name, value);
    else if (isHookDefinition(value)) for (const [exportName, fn] of Object.entries(value.exports)) add(exportName, fn);
    else if (isPlainObject(value)) for (const key of Object.keys(value).filter((k) => k !== '__esModule').sort()) add(key, value[key]);
    else throw new TypeError(`export "default" (CommonJS: module.exports) is not a hook or a set of functions: found ${describe(value)} (${ACCEPTED})`);
  }
  if (Object.keys(table).length === 0) {
    throw new TypeError(`the module exports no function: found ${names.length === 0 ? 'no exports at all' : describe(namespace.default)} (${ACCEPTED})`);
  }
  return table;
}
