/**
 * A stand-in for the Extism kernel (`extism:host/env`) during pre-
 * initialization: Wizer needs every import satisfied, and top-level hook code
 * must not call the host (each stub traps). The imports stay imports in the
 * snapshot, served by the real SDK at run time. Encoded by hand: a dozen
 * bytes per function, no toolchain needed.
 */

const I32 = 0x7f;
const I64 = 0x7e;

/** The kernel ABI as the Extism SDKs provide it: name → [params, results]. */
export const EXTISM_KERNEL: Record<string, [number[], number[]]> = {
  input_length: [[], [I64]],
  input_load_u8: [[I64], [I32]],
  input_load_u64: [[I64], [I64]],
  input_offset: [[], [I64]],
  alloc: [[I64], [I64]],
  free: [[I64], []],
  length: [[I64], [I64]],
  length_unsafe: [[I64], [I64]],
  load_u8: [[I64], [I32]],
  load_u64: [[I64], [I64]],
  store_u8: [[I64, I32], []],
  store_u64: [[I64, I64], []],
  output_set: [[I64, I64], []],
  error_set: [[I64], []],
  error_get: [[], [I64]],
  config_get: [[I64], [I64]],
  var_get: [[I64], [I64]],
  var_set: [[I64, I64], []],
  log_info: [[I64], []],
  log_warn: [[I64], []],
  log_error: [[I64], []],
  log_debug: [[I64], []],
  http_request: [[I64, I64], [I64]],
  http_status_code: [[], [I32]],
  http_headers: [[], [I64]],
};

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => {
  const bytes = Array.from(new TextEncoder().encode(s));
  return [...uleb(bytes.length), ...bytes];
};

/** The stub module's bytes: one trapping function exported per kernel import. */
export function extismHostStub(): Uint8Array {
  const entries = Object.entries(EXTISM_KERNEL);
  const types = entries.map(([, [params, results]]) => [0x60, ...vec(params.map((p) => [p])), ...vec(results.map((r) => [r]))]);
  const funcs = entries.map((_, i) => uleb(i));
  const exports = entries.map(([n], i) => [...name(n), 0x00, ...uleb(i)]);
  const body = [0x00, 0x00, 0x0b]; // no locals; unreachable; end
  const code = entries.map(() => [...uleb(body.length), ...body]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(3, vec(funcs)),
    ...section(7, vec(exports)),
    ...section(10, vec(code)),
  ]);
}
