/**
 * Extism Var state kept outside the instance, so that it outlives the
 * worker the instance runs on. A worker is terminated when any call on it
 * passes its deadline, and a worker's heap can run out under any of its
 * instances: without a copy, every other hook's Var state on that worker —
 * the organisation's test-gate record "the tests failed", say — went with it.
 *
 * The adapter serves the kernel's `var_get`/`var_set` itself (the SDK merges
 * host functions of its own namespace over its own, as with `alloc`), with
 * the SDK's semantics through its public `CallContext` API, and notes what
 * each call changed; the worker sends the changes back with the reply, and
 * the main thread keeps each (hook, session)'s Vars (`SessionVars`) and
 * hands them to the next instance it makes for that session.
 */

/** A Var change: the key and its new value as base64 (`null`: deleted). JSON-safe: it rides in the reply's extras. */
export type VarChange = readonly [key: string, value: string | null];

/** The parts of the SDK's `CallContext` the kernel var functions need (all public API). */
interface VarContext {
  read(addr: bigint): { string(): string; bytes(): Uint8Array } | null;
  store(input: Uint8Array): bigint;
  getVariable(name: string): { bytes(): Uint8Array } | null;
  setVariable(name: string, value: Uint8Array): void;
  deleteVariable(name: string): void;
  setError(error: Error): void;
}

/** One instance's side: serves `var_get`/`var_set`, restores Vars it was given, records changes. */
export class VarMirror {
  #pending: readonly VarChange[] | undefined;
  readonly #changes = new Map<string, string | null>();
  readonly #error: (message: string) => void;

  /** `restore`: the session's Vars from a lost instance, set before the guest's first var access. */
  constructor(restore: readonly VarChange[] | undefined, error: (message: string) => void) {
    this.#pending = restore !== undefined && restore.length > 0 ? restore : undefined;
    this.#error = error;
  }

  /** The kernel functions, for the `extism:host/env` namespace. */
  functions(): Record<string, (context: VarContext, ...args: bigint[]) => bigint | void> {
    return {
      var_get: (context, addr) => {
        this.#restore(context);
        const item = context.read(addr as bigint);
        if (item === null) return 0n;
        const value = context.getVariable(item.string());
        return value === null ? 0n : context.store(value.bytes());
      },
      var_set: (context, addr, valueAddr) => {
        this.#restore(context);
        const item = context.read(addr as bigint);
        if (item === null) {
          this.#error(`attempted to set variable using invalid key address (addr="${(addr as bigint).toString(16)}H")`);
          return;
        }
        const key = item.string();
        if (valueAddr === 0n) {
          context.deleteVariable(key);
          this.#changes.set(key, null);
          return;
        }
        const value = context.read(valueAddr as bigint);
        if (value === null) {
          this.#error(`attempted to set variable to invalid address (key="${key}"; addr="${(valueAddr as bigint).toString(16)}H")`);
          return;
        }
        const copied = new Uint8Array(value.bytes());
        try {
          context.setVariable(key, copied);
        } catch (error) {
          this.#error((error as Error).message);
          context.setError(error as Error);
          return;
        }
        this.#changes.set(key, Buffer.from(copied).toString('base64'));
      },
    };
  }

  /** What the call changed since the last `take` (undefined: nothing), and forgets it. */
  take(): VarChange[] | undefined {
    if (this.#changes.size === 0) return undefined;
    const changes = [...this.#changes];
    this.#changes.clear();
    return changes;
  }

  #restore(context: VarContext): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    // A copy in its own ArrayBuffer: the SDK reads a Var back by its `.buffer`, and a Buffer's is Node's shared pool.
    for (const [key, value] of pending) if (value !== null) context.setVariable(key, new Uint8Array(Buffer.from(value, 'base64')));
  }
}

/** The main thread's copy of each session's Vars for one hook (bounded by the hook's instance limit). */
export class SessionVars {
  readonly #bySession = new Map<string, Map<string, string>>();

  apply(session: string, changes: readonly VarChange[] | undefined): void {
    if (changes === undefined) return;
    let vars = this.#bySession.get(session);
    if (vars === undefined) this.#bySession.set(session, (vars = new Map()));
    for (const [key, value] of changes) {
      if (value === null) vars.delete(key);
      else vars.set(key, value);
    }
  }

  /** What a new instance for `session` starts with (undefined: nothing kept). */
  restore(session: string): VarChange[] | undefined {
    const vars = this.#bySession.get(session);
    return vars === undefined || vars.size === 0 ? undefined : [...vars];
  }

  /** The session starts fresh: its own fault discarded the instance, it was evicted, or the hook reloaded. */
  drop(session: string): void {
    this.#bySession.delete(session);
  }

  clear(): void {
    this.#bySession.clear();
  }
}
