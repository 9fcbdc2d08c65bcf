/**
 * What the AI SDK tells the model for a tool whose `execute` threw, read in
 * `ai` 7.0.173: the thrown value becomes a `tool-error` part, and
 * `createToolModelOutput` (errorMode "text") sends the model an `error-text`
 * output whose value is `getErrorMessage` of `@ai-sdk/provider` 4.0.38 —
 * `null`/`undefined` give "unknown error", a string is sent as it is, an
 * `Error` (by `instanceof`) as its `toString()` (so its `name` goes too:
 * "Name: message", or whatever an own `toString` returns), and any other
 * value as `JSON.stringify` of it (a plain object's every field, a
 * `toJSON`'s result). The same steps here, so post-tool hooks check that
 * exact text; the SDK does not export them under `ai`.
 */
export function modelErrorText(thrown: unknown): string {
  if (thrown === null || thrown === undefined) return 'unknown error';
  if (typeof thrown === 'string') return thrown;
  if (thrown instanceof Error) return String(thrown.toString());
  // JSON.stringify gives undefined for a function or symbol: the SDK would send no text then; "undefined" checks the same nothing.
  return String(JSON.stringify(thrown));
}

/**
 * The error the gated tool throws in place of the original: its `toString()`
 * and `message` are exactly the decided text (the SDK sends `toString()`),
 * with no `name` prefix, no `cause` and no field of the original — a
 * hostile error's second `toString()` or a field the hooks never saw cannot
 * reach the model.
 */
export class ToolFailure extends Error {
  constructor(text: string) {
    super(text);
    this.name = 'ToolFailure';
  }

  override toString(): string {
    return this.message;
  }
}

/**
 * The model's text for a thrown value, read once; a value the text cannot
 * even be made of (a circular object, a BigInt: the SDK itself would throw
 * there) is named as such, and nothing of it is sent.
 */
export function readThrown(thrown: unknown): string {
  try {
    return modelErrorText(thrown);
  } catch (error) {
    return `the tool failed with a value that has no text (${error instanceof Error ? error.name : typeof error})`;
  }
}
