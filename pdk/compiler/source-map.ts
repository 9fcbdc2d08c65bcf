/**
 * Just enough source-map reading to turn a position in the bundle (what
 * QuickJS reports during pre-initialization: `hook.js:LINE`) back into the
 * author's `file:line:col`.
 */
import { resolve } from 'node:path';
import { uleb } from './add-exports.ts';
import { CJS_NAMESPACE } from './bundle.ts';

/** A position in an original source file (1-based line and column). */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

interface RawSourceMap {
  sources: string[];
  mappings: string;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/**
 * The bundle's map as it ships inside the wasm: sources inside the entry's
 * directory stay relative paths; those outside it (the PDK, node_modules)
 * keep only their file name, so the bytes do not depend on where hookbox or
 * the project lives (builds stay byte-identical across machines).
 */
export function portableSourceMap(mapJson: string): string {
  const map = JSON.parse(mapJson) as RawSourceMap & Record<string, unknown>;
  const sources = map.sources.map((s) => {
    const path = sourcePath(s);
    return path.startsWith('../') ? (path.split('/').pop() ?? path) : path;
  });
  return JSON.stringify({ ...map, sources });
}

/** Appends a custom section (id 0) to a wasm module. */
export function withCustomSection(wasm: Uint8Array, name: string, payload: string): Uint8Array {
  const encoder = new TextEncoder();
  const nameBytes = encoder.encode(name);
  const payloadBytes = encoder.encode(payload);
  const nameLength = uleb(nameBytes.length);
  const bodyLength = nameLength.length + nameBytes.length + payloadBytes.length;
  // Copied as typed arrays: spreading a source map's bytes into a JS array cost ~25 ms per build.
  const parts = [wasm, [0, ...uleb(bodyLength)], nameLength, nameBytes, payloadBytes];
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}


/** A map source as a path relative to the map's directory: files bundled as CommonJS carry a namespace prefix. */
export function sourcePath(source: string): string {
  return source.startsWith(`${CJS_NAMESPACE}:`) ? source.slice(CJS_NAMESPACE.length + 1) : source;
}

/** A lookup from generated (1-based) line to the first original position mapped on it. */
export function sourceMapLookup(mapJson: string, mapDir: string): (line: number) => SourcePosition | undefined {
  const map = JSON.parse(mapJson) as RawSourceMap;
  const lines: (SourcePosition | undefined)[] = [];
  let source = 0;
  let origLine = 0;
  let origCol = 0;
  for (const lineText of map.mappings.split(';')) {
    let first: SourcePosition | undefined;
    for (const segment of lineText.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      if (fields.length < 4) continue;
      source += fields[1] as number;
      origLine += fields[2] as number;
      origCol += fields[3] as number;
      const file = map.sources[source];
      first ??= file === undefined ? undefined : { file: resolve(mapDir, sourcePath(file)), line: origLine + 1, column: origCol + 1 };
    }
    lines.push(first);
  }
  return (line) => lines[line - 1];
}
