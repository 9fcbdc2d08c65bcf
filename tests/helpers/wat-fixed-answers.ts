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
import { COPY_TO_BLOCK_FUNC } from './wat-answer.ts';
import { extismModule } from './wat-module.ts';

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
  return extismModule(
    `${entries.map((entry) => `(data (i32.const ${entry.offset}) "${watBytes(entry.bytes)}")`).join('\n  ')}
  ${COPY_TO_BLOCK_FUNC}
${entries.map((entry) => `  (func (export "${entry.name}") (result i32)
    (call $output_set (call $block (i32.const ${entry.offset}) (i32.const ${entry.bytes.length})) (i64.const ${entry.bytes.length}))
    (i32.const 0))`).join('\n')}`,
    { memory: `${pages} ${pages + 1}` },
  );
}

/** Compiles {@link fixedAnswersWat} and writes it to `<dir>/<file>.wasm`; returns the path. */
export async function writeFixedAnswersWasm(dir: string, file: string, answers: Readonly<Record<string, unknown>>): Promise<string> {
  const bytes = await compileWatSource(fixedAnswersWat(answers), `${file}.wat`);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${file}.wasm`);
  await writeFile(path, bytes);
  return path;
}
