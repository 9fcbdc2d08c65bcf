/**
 * A real wasm hook that answers each of its exports with a fixed decision:
 * WAT written at test time (one data segment per answer, msgpack-encoded by
 * the PDK's own encoder), compiled with wabt, written to a file an operator
 * config can name. For the real-agent cases of the lifecycle seams: the hook
 * is an ordinary sandboxed plugin, the decision is what the test plants.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encode } from '../../pdk/runtime/msgpack.ts';
import { compileWatSource } from './wat.ts';

/** A WAT string literal of raw bytes (`"\\81\\a6..."`). */
function watBytes(bytes: Uint8Array): string {
  return [...bytes].map((byte) => `\\${byte.toString(16).padStart(2, '0')}`).join('');
}

/**
 * The WAT of a hook whose export `name` answers `answers[name]` (encoded as
 * msgpack). Each answer sits in its own 4 KiB-aligned data segment.
 */
export function fixedAnswersWat(answers: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(answers).map(([name, value], index) => {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`not an export name: ${JSON.stringify(name)}`);
    const bytes = encode(value);
    if (bytes.length > 4096) throw new Error(`the answer of ${name} is over 4 KiB`);
    return { name, bytes, offset: index * 4096 };
  });
  const pages = Math.max(1, Math.ceil((entries.length * 4096) / 65536));
  return `(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
  (memory (export "memory") ${pages} ${pages + 1})
${entries.map((entry) => `  (data (i32.const ${entry.offset}) "${watBytes(entry.bytes)}")`).join('\n')}
  (func $emit (param $ptr i32) (param $len i32) (result i32)
    (local $block i64) (local $i i32)
    (local.set $block (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (call $store_u8
          (i64.add (local.get $block) (i64.extend_i32_u (local.get $i)))
          (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (call $output_set (local.get $block) (i64.extend_i32_u (local.get $len)))
    (i32.const 0))
${entries.map((entry) => `  (func (export "${entry.name}") (result i32) (call $emit (i32.const ${entry.offset}) (i32.const ${entry.bytes.length})))`).join('\n')}
)`;
}

/** Compiles {@link fixedAnswersWat} and writes it to `<dir>/<file>.wasm`; returns the path. */
export async function writeFixedAnswersWasm(dir: string, file: string, answers: Readonly<Record<string, unknown>>): Promise<string> {
  const bytes = await compileWatSource(fixedAnswersWat(answers), `${file}.wat`);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${file}.wasm`);
  await writeFile(path, bytes);
  return path;
}
