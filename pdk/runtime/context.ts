import type { HookContext } from '../hook-context.ts';
import type { SessionInfo } from '../types.ts';
import { pdkGlobals } from './globals.ts';

type Shared = Pick<HookContext<unknown>, 'config' | 'state' | 'log'>;

// The same for every call (they read the engine's globals when used), so
// they are built once: a call only allocates the small context object.
const shared: Shared = {
  config: { get: (key) => pdkGlobals().Config.get(key) ?? undefined },
  state: {
    get: (key) => pdkGlobals().Var.getString(key) ?? undefined,
    set: (key, value) => pdkGlobals().Var.set(key, value),
    getJson<T>(key: string): T | undefined {
      const text = pdkGlobals().Var.getString(key);
      return text === null ? undefined : (JSON.parse(text) as T);
    },
    setJson: (key, value) => pdkGlobals().Var.set(key, JSON.stringify(value)),
  },
  log: {
    info: (m) => pdkGlobals().console.info(m),
    warn: (m) => pdkGlobals().console.warn(m),
    error: (m) => pdkGlobals().console.error(m),
    debug: (m) => pdkGlobals().console.debug(m),
  },
};

/** Builds the `ctx` a handler receives, over the engine's Config/Var/console globals. */
export function hookContext<D>(session: SessionInfo, next: D | null): HookContext<D> {
  return { next, session, config: shared.config, state: shared.state, log: shared.log };
}
