import type { SessionInfo } from './types.ts';

/**
 * What a handler can see and use besides its payload.
 *
 * @example
 * ```ts
 * export default defineHook({
 *   preTool(payload, ctx) {
 *     const seen = ctx.state.getJson<number>('calls') ?? 0;
 *     ctx.state.setJson('calls', seen + 1);
 *     ctx.log.info(`call ${seen + 1} in session ${ctx.session.id}, turn ${ctx.session.turn}`);
 *     if (ctx.next?.action === 'deny') return; // already denied upstream
 *     return ctx.config.get('mode') === 'strict' ? ask('strict mode') : undefined;
 *   },
 * });
 * ```
 */
export interface HookContext<D> {
  /** The decision so far (what earlier hooks composed); `null` on notify seams. */
  readonly next: D | null;
  /** The session this call belongs to: `{id, turn, step, cwd}`. */
  readonly session: SessionInfo;
  /** Operator-provided configuration (Extism Config); `undefined` when a key is unset. */
  readonly config: { get(key: string): string | undefined };
  /** Per-instance state (Extism Var): survives calls of the same hook in the same session. */
  readonly state: {
    get(key: string): string | undefined;
    set(key: string, value: string): void;
    getJson<T>(key: string): T | undefined;
    setJson(key: string, value: unknown): void;
  };
  /** Extism logging; the host caps how many lines a call may log. */
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string): void; debug(m: string): void };
}
