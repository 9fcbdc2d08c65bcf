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

/**
 * What a hook asks the operator for, declared beside its handlers. `hookbox build` writes these
 * into `hook.json` (read from the source as literals, without running it); the operator's grant in
 * the config still decides: nothing requested is reachable until it is also granted.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   capabilities: { allowedHosts: ['api.example.com'] },
 *   tools: ['bash'],
 *   config: { endpoint: 'the URL the hook posts audit lines to' },
 *   limits: { timeoutMs: 2000 },
 *   preTool: () => allow(),
 * });
 * ```
 */
export interface HookRequests {
  /** Capabilities requested (deny by default; the operator's `grant` intersects them). */
  readonly capabilities?: {
    /** Hosts for `Http.request` (exact names or `*.example.com`). */
    readonly allowedHosts?: readonly string[];
    /** Host directory → guest path (`"/data"`, or `{ path, write: true }`). */
    readonly allowedPaths?: Readonly<Record<string, string | { readonly path: string; readonly write?: boolean }>>;
    /** Environment variable names visible through WASI. */
    readonly env?: readonly string[];
    /** Whether the hook reads a real clock through WASI. */
    readonly clock?: boolean;
    /** The operator's signals the hook reads with `signal(name)`: names, or `["*"]` for whatever the operator grants. */
    readonly signals?: readonly string[];
  };
  /** Tool-name matchers (anchored regular expressions) for the tool seams. */
  readonly tools?: readonly string[];
  /** Limits the hook asks for; the operator's win. */
  readonly limits?: { readonly timeoutMs?: number; readonly memoryMb?: number; readonly maxOutputBytes?: number; readonly instructionBudget?: number };
  /** The config keys the hook reads (`ctx.config.get`), each with a description; an operator's unknown key is refused. */
  readonly config?: Readonly<Record<string, string>>;
  /** One line on what the hook does (default: the package's description). */
  readonly description?: string;
}

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
export function defineHook(definition: HookHandlers & HookRequests): HookDefinition {
  // The requests are for hook.json (read at build time); only handlers become exports.
  const { capabilities: _c, tools: _t, limits: _l, config: _k, description: _d, ...handlers } = definition;
  const exports: Partial<Record<HookExportName, () => number | Promise<number>>> = {};
  for (const [name, exportName] of Object.entries(HANDLER_EXPORTS) as [keyof HookHandlers, HookExportName][]) {
    const handler = (handlers as HookHandlers)[name];
    if (handler === undefined) continue;
    if (typeof handler !== 'function') throw new TypeError(`defineHook: handler "${name}" is not a function`);
    exports[exportName] = seamExport(handler as (payload: unknown, ctx: HookContext<unknown>) => unknown);
  }
  return { [HOOK_DEFINITION]: true, handlers: handlers as HookHandlers, exports };
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
