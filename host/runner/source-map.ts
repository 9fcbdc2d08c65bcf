/**
 * Points a plugin error's stack at the author's source. `hookbox build`
 * embeds the bundle's source map in the wasm (custom section
 * {@link SOURCE_MAP_SECTION}); QuickJS reports frames as `hook.js:LINE`; this
 * rewrites each such frame to `source:line:col`. The map comes from the hook's
 * own bytes, so it is hostile: size-capped, parsed defensively, and every
 * source name it contributes goes through `printable` (host/text).
 */
import { LEAST_UPPER_BOUND, TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { printable } from '../text/index.ts';

/** The custom section `hookbox build` writes the bundle's source map into. */
export const SOURCE_MAP_SECTION = 'hookbox.sourcemap';
/** A bigger map is ignored (frames stay as QuickJS wrote them). */
const MAX_MAP_BYTES = 8 << 20;
const MAX_SOURCE_NAME = 200;

/** Rewrites `hook.js:LINE[:COL]` frames of a message; identity when the map is absent or unreadable. */
export type StackMapper = (message: string) => string;

const identity: StackMapper = (message) => message;

/** A mapper over the source map in a module's custom section (the compiled module's `customSections`). */
export function stackMapper(sections: readonly ArrayBuffer[]): StackMapper {
  const section = sections[0];
  if (section === undefined || section.byteLength > MAX_MAP_BYTES) return identity;
  let map: TraceMap | undefined;
  const trace = (): TraceMap | undefined => {
    if (map === undefined) {
      try {
        map = new TraceMap(new TextDecoder().decode(section));
      } catch {
        return undefined;
      }
    }
    return map;
  };
  return (message) =>
    message.replace(/\bhook\.js:(\d+)(?::(\d+))?/g, (whole, line: string, column: string | undefined) => {
      const traced = trace();
      if (traced === undefined) return whole;
      let pos;
      try {
        pos = originalPositionFor(traced, { line: Number(line), column: column === undefined ? 0 : Number(column) - 1, bias: LEAST_UPPER_BOUND });
      } catch {
        return whole;
      }
      // A segment naming a source index past `sources` yields `undefined`, not `null` (hostile maps).
      if (typeof pos.source !== 'string' || typeof pos.line !== 'number') return whole;
      return `${printable(pos.source.replace(/^hookbox-cjs:/, ''), { maxLength: MAX_SOURCE_NAME })}:${pos.line}:${(pos.column ?? 0) + 1}`;
    });
}
