/**
 * An in-memory `HookContext` for running a hook's handlers in Node (unit
 * tests, quick experiments) without compiling it: Config from a plain
 * object, Var in a Map, log lines collected in an array. Not bundled into
 * any hook (no hook imports it).
 */
import type { HookContext, SessionInfo } from '../../pdk/index.ts';

/** A collected log line. */
export interface LogLine {
  readonly level: 'info' | 'warn' | 'error' | 'debug';
  readonly message: string;
}

/** A `HookContext` plus handles on what the handler did to it. */
export interface MemoryContext<D> extends HookContext<D> {
  readonly vars: Map<string, string>;
  readonly lines: LogLine[];
}

/** What to seed a {@link memoryContext} with; everything is optional. */
export interface MemoryContextOptions<D> {
  readonly next?: D | null;
  readonly session?: Partial<SessionInfo>;
  readonly config?: Readonly<Record<string, string>>;
  /** Share Var across calls (the same plugin instance) by passing the same Map. */
  readonly vars?: Map<string, string>;
}

/**
 * Builds an in-memory context.
 *
 * @example
 * ```ts
 * const ctx = memoryContext<PreToolDecision>({ config: { denyPatterns: '["terraform destroy"]' } });
 * hook.handlers.preTool?.({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }, ctx);
 * ctx.lines; // what it logged
 * ```
 */
export function memoryContext<D>(options: MemoryContextOptions<D> = {}): MemoryContext<D> {
  const vars = options.vars ?? new Map<string, string>();
  const lines: LogLine[] = [];
  const config = options.config ?? {};
  const logAt = (level: LogLine['level']) => (message: string) => {
    lines.push({ level, message });
  };
  return {
    next: options.next ?? null,
    session: { id: 'session-1', turn: 1, step: 0, cwd: '/work/app', ...options.session },
    config: { get: (key) => (Object.prototype.hasOwnProperty.call(config, key) ? config[key] : undefined) },
    state: {
      get: (key) => vars.get(key),
      set: (key, value) => {
        vars.set(key, value);
      },
      getJson<T>(key: string): T | undefined {
        const text = vars.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as T);
      },
      setJson: (key, value) => {
        vars.set(key, JSON.stringify(value));
      },
    },
    log: { info: logAt('info'), warn: logAt('warn'), error: logAt('error'), debug: logAt('debug') },
    vars,
    lines,
  };
}
