import { HANDLER_EXPORTS, type SeamExport, type SeamId, type SeamName } from './generated/seam-names.ts';
import type { SeamTypes } from './generated/seams.ts';
import { seamExport } from './runtime/dispatch.ts';
import type { HookContext } from './hook-context.ts';

export type { HookContext } from './hook-context.ts';

/** One seam's handler: its payload and context in, its decision (or nothing) out. */
export type SeamHandler<S extends SeamId> = (
  payload: SeamTypes[S]['payload'],
  ctx: HookContext<SeamTypes[S]['decision']>,
) => Answer<SeamTypes[S]['decision']>;

/**
 * The handlers a hook defines, one per seam it handles, named after the seam's
 * export in camelCase: `sessionStart`, `promptSubmit`, `preTool`, `postTool`,
 * `turnContinuation` (generated from the host's seams). Returning nothing
 * (`undefined`) means "no opinion": the seam passes the decision so far on.
 *
 * @example
 * ```ts
 * const handlers: HookHandlers = {
 *   preTool: (p) => (p.toolName === 'bash' ? ask('shell command') : undefined),
 *   turnContinuation: () => stop(),
 * };
 * export default defineHook(handlers);
 * ```
 */
export type HookHandlers = { [N in SeamName as N['handler']]?: SeamHandler<N['id']> };

/**
 * What a handler returns: a decision, nothing (no opinion), or a promise of either. A promise is
 * settled inside the call (promise jobs and timers run there, on a virtual clock; no other I/O waits); a
 * rejection is a `plugin-error` fault, and so is a promise still pending when nothing is left to run.
 */
export type Answer<D> = D | void | Promise<D | void>;

/** Handler name → wasm export name, as the host calls them. */
export { HANDLER_EXPORTS };

/** A wasm export name of one seam. */
export type HookExportName = SeamExport;

/** Marks a {@link HookDefinition}; `Symbol.for` so copies of the PDK bundled twice still agree. */
export const HOOK_DEFINITION = Symbol.for('hookbox.hook-definition');

/**
 * What `defineHook` returns; the hook module's default export. The compiler
 * turns each entry of `exports` into a wasm export of the same name.
 *
 * @example
 * ```ts
 * const hook: HookDefinition = defineHook({ preTool: () => allow() });
 * Object.keys(hook.exports); // ['pre_tool']
 * ```
 */
export interface HookDefinition {
  readonly [HOOK_DEFINITION]: true;
  readonly handlers: Readonly<HookHandlers>;
  /** Extism export functions (`() => 0`), only for the handlers defined. */
  readonly exports: Readonly<Partial<Record<HookExportName, () => number | Promise<number>>>>;
}

/**
 * Defines a hook: `export default defineHook({...})` in the hook's entry file.
 * Only the handlers given become wasm exports. Each call decodes the msgpack
 * envelope, calls the handler with `(payload, ctx)` and writes its decision as
 * msgpack (nothing when it returns `undefined`). A thrown error becomes an
 * Extism error carrying its message and stack (a `plugin-error` fault).
 *
 * @example
 * ```ts
 * import { defineHook, deny, ask } from 'hookbox/pdk';
 *
 * export default defineHook({
 *   preTool(payload) {
 *     if (payload.toolName !== 'bash') return;
 *     const command = String(payload.arguments.command ?? '');
 *     if (/\brm\s+-rf\s+\/(\s|$)/.test(command)) return deny('recursive delete of /');
 *     if (/\bgit\s+push\b/.test(command)) return ask('pushes to a remote');
 *   },
 * });
 * ```
 */
export function defineHook(handlers: HookHandlers): HookDefinition {
  const exports: Partial<Record<HookExportName, () => number | Promise<number>>> = {};
  for (const [name, exportName] of Object.entries(HANDLER_EXPORTS) as [keyof HookHandlers, HookExportName][]) {
    const handler = handlers[name];
    if (handler === undefined) continue;
    if (typeof handler !== 'function') throw new TypeError(`defineHook: handler "${name}" is not a function`);
    exports[exportName] = seamExport(handler as (payload: unknown, ctx: HookContext<unknown>) => unknown);
  }
  return { [HOOK_DEFINITION]: true, handlers: { ...handlers }, exports };
}

/**
 * Whether a value is a {@link HookDefinition} (what `defineHook` returned).
 *
 * @example
 * ```ts
 * isHookDefinition(defineHook({ turnContinuation: () => stop() })); // true
 * isHookDefinition(() => 0); // false
 * ```
 */
export function isHookDefinition(value: unknown): value is HookDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[HOOK_DEFINITION] === true;
}
