/**
 * Typed access to the js-pdk globals the engine installs (`Host`, `Config`,
 * `Var`, `console`). Read through `globalThis` at call time rather than
 * declared ambiently, so the PDK also type-checks (and can be imported) in
 * Node, where these globals do not exist.
 */
export interface PdkGlobals {
  Host: {
    inputBytes(): ArrayBuffer;
    inputString(): string;
    outputBytes(output: ArrayBuffer | Uint8Array): boolean;
    outputString(output: string): boolean;
  };
  Config: { get(key: string): string | null };
  Var: {
    getBytes(name: string): ArrayBuffer | null;
    getString(name: string): string | null;
    set(name: string, value: string | ArrayBuffer | Uint8Array): void;
  };
  console: {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
    debug(message: string): void;
  };
}

/** The engine's globals; only valid inside a hook call. */
export function pdkGlobals(): PdkGlobals {
  return globalThis as unknown as PdkGlobals;
}
