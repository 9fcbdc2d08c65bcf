/**
 * Builds the example hooks from their TypeScript source with the project's
 * own compiler, into `examples-hooks/<name>/dist/` (never committed) in a
 * checkout, and into the user's cache folder from an installed package (which
 * is never written to). A hook whose sources, PDK and engine are unchanged
 * since its last build is reused.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildHook } from '../pdk/compiler/index.ts';
import { IS_CHECKOUT, PACKAGE_ROOT } from '../host/package.ts';
import { cacheRoot, ensureEngine } from '../pdk/engine/build.ts';

export const EXAMPLES_DIR = join(PACKAGE_ROOT, 'examples-hooks');
export const EXAMPLE_HOOKS = ['guard-bash', 'secret-redactor', 'prompt-guard', 'session-context', 'test-gate', 'audit-trail'] as const;
export type ExampleHook = (typeof EXAMPLE_HOOKS)[number];

export interface BuiltExample {
  readonly name: ExampleHook;
  readonly wasmPath: string;
  readonly manifestPath: string;
  readonly rebuilt: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'dist' || entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js|mjs|json)$/.test(entry)) out.push(path);
  }
  return out.sort();
}

function inputsHash(name: ExampleHook, enginePath: string): string {
  const pdkDir = join(EXAMPLES_DIR, '..', 'pdk');
  const files = [
    ...sourceFiles(join(EXAMPLES_DIR, name)),
    ...sourceFiles(join(EXAMPLES_DIR, 'shared')),
    // Examples built on a catalog policy's rules (secret-redactor, prompt-guard) import them, and they import guard-bash's parser.
    ...sourceFiles(join(EXAMPLES_DIR, 'policies')),
    ...(name === 'guard-bash' ? [] : sourceFiles(join(EXAMPLES_DIR, 'guard-bash'))),
    ...sourceFiles(pdkDir).filter((file) => !file.includes(`${join(pdkDir, 'engine')}`)),
  ];
  const hash = createHash('sha256').update(enginePath);
  for (const file of files) hash.update(relative(EXAMPLES_DIR, file)).update(readFileSync(file));
  return hash.digest('hex');
}

/** Builds one example hook unless an up-to-date build exists. */
export async function buildExample(name: ExampleHook, onProgress: (message: string) => void = () => {}): Promise<BuiltExample> {
  const enginePath = await ensureEngine({ onProgress });
  const outDir = IS_CHECKOUT ? join(EXAMPLES_DIR, name, 'dist') : join(cacheRoot(), 'examples', name);
  const wasmPath = join(outDir, 'hook.wasm');
  const manifestPath = join(outDir, 'hook.json');
  const stampPath = join(outDir, '.inputs-sha256');
  const hash = inputsHash(name, enginePath);
  if (existsSync(manifestPath) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === hash) {
    return { name, wasmPath, manifestPath, rebuilt: false };
  }
  onProgress(`building ${name}`);
  const result = await buildHook({ entry: join(EXAMPLES_DIR, name, 'hook.ts'), outFile: wasmPath });
  if (result.manifestPath === undefined) throw new Error(`${name} handles no seam`);
  writeFileSync(stampPath, hash);
  return { name, wasmPath: result.wasmPath, manifestPath: result.manifestPath, rebuilt: true };
}

/** Builds every example hook (sequentially: the machine has two cores and the builds are CPU-bound). */
export async function buildExamples(onProgress?: (message: string) => void): Promise<Record<ExampleHook, BuiltExample>> {
  const built = {} as Record<ExampleHook, BuiltExample>;
  for (const name of EXAMPLE_HOOKS) built[name] = await buildExample(name, onProgress);
  return built;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = await buildExamples((message) => process.stderr.write(`${message}\n`));
  for (const hook of Object.values(built)) process.stdout.write(`${hook.manifestPath}${hook.rebuilt ? '' : ' (cached)'}\n`);
}
