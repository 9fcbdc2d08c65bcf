/**
 * Compiles small C test modules against wasi-libc with `@yowasp/clang` (clang
 * compiled to wasm, from npm), the toolchain `pdk/engine/build.ts` uses. The
 * output is cached under `<cache>/test-c/` by a hash of the source, the flags
 * and the clang version, so only the first run pays the ~10 s compile.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { cacheRoot } from '../../pdk/engine/build.ts';

type Tree = { [name: string]: Tree | string | Uint8Array };
type RunClang = (args: string[], files: Tree, options: Record<string, unknown>) => Promise<Tree>;

/** A wasi-libc reactor: `_initialize` runs the C constructors. */
export const REACTOR_FLAGS = ['--target=wasm32-wasip1', '-O2', '-mexec-model=reactor', '-Wl,--max-memory=1048576'];

/** Compiles one C file to wasm bytes (cached). */
export async function compileC(file: string, flags: readonly string[] = REACTOR_FLAGS): Promise<Uint8Array> {
  const source = await readFile(file, 'utf8');
  const require = createRequire(import.meta.url);
  const clangPackage = join(dirname(require.resolve('@yowasp/clang')), '..', 'package.json');
  const version = (JSON.parse(await readFile(clangPackage, 'utf8')) as { version: string }).version;
  const key = createHash('sha256').update(version).update(JSON.stringify(flags)).update(source).digest('hex').slice(0, 24);
  const cached = join(cacheRoot(), 'test-c', `${basename(file, '.c')}-${key}.wasm`);
  if (existsSync(cached)) return new Uint8Array(await readFile(cached));
  const { runClang } = (await import('@yowasp/clang')) as unknown as { runClang: RunClang };
  const output: Uint8Array[] = [];
  const capture = (bytes: Uint8Array | null) => {
    if (bytes) output.push(new Uint8Array(bytes));
  };
  let tree: Tree;
  try {
    tree = await runClang(['clang', ...flags, '-o', 'out.wasm', 'in.c'], { 'in.c': source }, { decodeASCII: false, stdout: capture, stderr: capture, fetchProgress: () => undefined });
  } catch (error) {
    throw new Error(`clang failed on ${file}:\n${Buffer.concat(output).toString('utf8')}`, { cause: error });
  }
  const wasm = tree['out.wasm'];
  if (!(wasm instanceof Uint8Array)) throw new Error(`clang produced no wasm for ${file}`);
  await mkdir(dirname(cached), { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  await writeFile(tmp, wasm);
  await rename(tmp, cached);
  return new Uint8Array(wasm);
}
