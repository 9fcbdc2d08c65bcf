/**
 * JSON for a terminal. `JSON.stringify` escapes C0 controls and lone
 * surrogates but writes DEL, the C1 controls (U+0080–U+009F, which include
 * the 8-bit CSI and OSC introducers), bidi overrides and other format
 * characters raw. Here every one of them becomes a `\uXXXX` escape as well,
 * which is the same JSON value: machine readers lose nothing, and a person
 * reading `--json` output on a terminal is not attacked by it.
 */

/** DEL, C1, Cf (bidi, zero-width, tags…), Zl/Zp: characters JSON.stringify leaves raw that a terminal or editor may act on. */
const RAW_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

function unicodeEscape(char: string): string {
  let escaped = '';
  // An astral character (the tag characters U+E0000…) is written as its surrogate pair.
  for (let index = 0; index < char.length; index++) escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escaped;
}

/**
 * `JSON.stringify(value, null, space)` whose text holds only printable
 * characters (plus the newlines and spaces of `space` indentation): parsing
 * it gives back exactly `value`.
 *
 * @example
 * printableJson({ reason: '\u202e\u009b' }) // '{"reason":"\\u202e\\u009b"}'
 */
export function printableJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(RAW_IN_JSON, unicodeEscape);
}
