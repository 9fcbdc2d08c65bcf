/**
 * A policy's config as its hook reads it: the JSON the host validated (in the
 * `policy` config key), parsed once per distinct value — the config is fixed
 * for a plugin instance, so a call pays for a string comparison, not a parse.
 */
export type Parsed<T> = T | { readonly error: string };

/** A reader that parses `raw` with `parse` the first time it sees that value. */
export function cachedConfig<T>(parse: (value: unknown) => Parsed<T>): (raw: string | undefined) => Parsed<T> {
  let cachedRaw: string | undefined;
  let cached: Parsed<T> | undefined;
  return (raw) => {
    if (cached === undefined || raw !== cachedRaw) {
      cachedRaw = raw;
      let value: unknown;
      try {
        value = JSON.parse(raw ?? '');
      } catch {
        return (cached = { error: 'the policy config is not JSON' });
      }
      cached = value !== null && typeof value === 'object' ? parse(value) : { error: 'the policy config is not a JSON object' };
    }
    return cached;
  };
}

/** `value` when it is an array of strings, else `undefined`. */
export function stringList(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** `value` when it is one of `choices`, else `undefined`. */
export function oneOf<C extends string>(value: unknown, choices: readonly C[]): C | undefined {
  return typeof value === 'string' && (choices as readonly string[]).includes(value) ? (value as C) : undefined;
}
