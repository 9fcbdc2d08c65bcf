/**
 * Type-checks a hook with the TypeScript API before it is bundled: esbuild
 * only strips types. The environment is the hook's: ES2020 plus the js-pdk
 * globals (`Host`, `Config`, `Var`, …) from @extism/js-pdk, no Node.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type TS from 'typescript';
import { writeCacheFile } from './code-cache.ts';
import { typescript } from './typescript.ts';
import { BuildError } from '../../host/errors.ts';
import { PACKAGE_ROOT } from '../../host/package.ts';

/**
 * The hook's type environment, as tsconfig `compilerOptions`: what QuickJS
 * 2021-03-27 has is ES2020 plus String.prototype.replaceAll (no
 * Array.prototype.at, Object.hasOwn, Intl, URL). `hookbox build` checks with
 * these and `hookbox init` writes them into the project's tsconfig.json.
 */
export const HOOK_COMPILER_OPTIONS = {
  target: 'ES2020',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2020', 'ES2021.String'],
  types: [],
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  allowJs: true,
  checkJs: false,
  resolveJsonModule: true,
} as const;

function compilerOptions(): TS.CompilerOptions {
  const { options, errors } = typescript().convertCompilerOptionsFromJson(HOOK_COMPILER_OPTIONS, process.cwd());
  if (errors.length > 0) throw new BuildError(`hookbox's own hook compiler options are invalid: ${errors.map((e) => String(e.messageText)).join('; ')}`);
  // `hookbox/…` is the PDK of the hookbox that builds, as in the bundle (bundle.ts): found from a hook
  // project that does not install hookbox itself (a global install), and never another version's.
  options.paths = { 'hookbox/*': [join(PACKAGE_ROOT, '*')] };
  return options;
}

/**
 * The globals a hook may use, as the hookbox engine provides them (js-pdk's
 * API: Host, Config, Var, Http, Memory, console, TextEncoder/Decoder, URL,
 * atob/btoa, structuredClone, crypto, performance, timers, events, fetch). hookbox's own declarations, not
 * @extism/js-pdk's: those also declare APIs the engine lacks.
 */
export function jsPdkTypes(): string {
  return join(PACKAGE_ROOT, 'pdk', 'types', 'hook-globals.d.ts');
}

// Library .d.ts files parsed once per process: later builds (tests, watch) reuse them.
const libCache = new Map<string, TS.SourceFile>();

function compilerHost(typeRoot: string, options: TS.CompilerOptions): TS.CompilerHost {
  // An incremental host versions each file by a hash of its text, which the build info records.
  const host = options.incremental === true ? typescript().createIncrementalCompilerHost(options) : typescript().createCompilerHost(options);
  // TypeScript writes nothing but the build info (noEmit): through a temporary file and a rename,
  // so a build of the same hook in another process never reads a torn one.
  host.writeFile = (fileName, text) => writeCacheFile(fileName, text);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const cacheable = fileName.includes('/node_modules/');
    // An incremental host's files carry a version (their hash) a plain host's lack: cached apart.
    const key = `${options.incremental === true ? 'versioned' : 'plain'}:${fileName}`;
    const cached = cacheable ? libCache.get(key) : undefined;
    if (cached) return cached;
    const file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file && cacheable) libCache.set(key, file);
    return file;
  };
  host.getCurrentDirectory = () => typeRoot;
  // JSDoc of TypeScript files carries no types: parse only what can change a diagnostic (all of it in JS files).
  host.jsDocParsingMode = typescript().JSDocParsingMode.ParseForTypeErrors;
  return host;
}

function format(d: TS.Diagnostic): string {
  const text = typescript().flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return `error TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${d.file.fileName}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
}

/**
 * Diagnostics that mean "this global (or this member of one) does not exist
 * in the engine": cannot find name, and property-does-not-exist on one of the
 * engine's global objects (TypeScript words some names as "install type
 * definitions for node": `process`, `__dirname`). In plain JavaScript these are the only ones
 * reported: the rest of a JS file's inferred types are not the author's promise.
 */
const MISSING_NAME_CODES = new Set([2304, 2552, 2580, 2582, 2583, 2584, 2591, 2592, 2593]);
const MISSING_MEMBER_CODES = new Set([2339, 2551]);
const ENGINE_GLOBALS = /on type '(?:Console|Host|Memory|MemoryHandle|URL|URLSearchParams|TextEncoder|TextDecoder|Crypto|SubtleCrypto|Performance|typeof globalThis|\{ get\(key: string\): string \| null; \}|\{ request\(.*)'/;

function missingGlobal(d: TS.Diagnostic): boolean {
  if (MISSING_NAME_CODES.has(d.code)) return true;
  return MISSING_MEMBER_CODES.has(d.code) && ENGINE_GLOBALS.test(typescript().flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** hookbox's PDK sources, as TypeScript names files (forward slashes). */
const PDK_DIR = `${join(PACKAGE_ROOT, 'pdk').split(sep).join('/')}/`;

/** Files whose bodies are not checked: hookbox's own PDK sources, but those the check names as roots. */
function pdkBodies(roots: readonly string[]): (file: TS.SourceFile) => boolean {
  const rootNames = new Set(roots.map((r) => r.split(sep).join('/')));
  return (file) => file.fileName.startsWith(PDK_DIR) && !rootNames.has(file.fileName);
}

/**
 * `getPreEmitDiagnostics` without the function bodies of hookbox's own PDK sources: a hook imports
 * them by relative path in this repository (`../../pdk/index.ts`), and checking their bodies is ~1/5
 * of the check of guard-bash, spent on every build for errors no hook can cause (tests/pdk/
 * typecheck-scope.spec.ts checks them clean under these options). What a hook uses of them is still
 * checked, as for the `.d.ts` files a hook gets through `hookbox/pdk` (which `skipLibCheck` skips).
 */
function hookDiagnostics(program: TS.Program | TS.BuilderProgram, roots: readonly string[]): readonly TS.Diagnostic[] {
  const unchecked = pdkBodies(roots);
  const checked = program.getSourceFiles().filter((f) => !unchecked(f));
  return typescript().sortAndDeduplicateDiagnostics([
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((f) => program.getSemanticDiagnostics(f)),
  ]);
}

/** Build infos kept in a cache directory: one per hook entry, the least recently written removed past this. */
export const MAX_BUILD_INFOS = 64;

/**
 * Where {@link typecheckHook} keeps what it checked of `entry` under a cache root
 * (`<cacheDir>/typecheck/`), one file per entry path.
 */
export function buildInfoPath(cacheDir: string, entry: string): string {
  const key = createHash('sha256').update(resolve(entry)).digest('hex').slice(0, 24);
  return join(cacheDir, 'typecheck', `${key}.tsbuildinfo`);
}

/** Keeps the newest {@link MAX_BUILD_INFOS} build infos beside `file` (a cache, not a record: a removed one costs one full check). */
function pruneBuildInfos(file: string): void {
  const dir = dirname(file);
  let infos: { path: string; mtimeMs: number }[];
  try {
    infos = readdirSync(dir)
      .filter((name) => name.endsWith('.tsbuildinfo'))
      .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }));
  } catch {
    return;
  }
  infos.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const stale of infos.slice(MAX_BUILD_INFOS)) rmSync(stale.path, { force: true });
}

/**
 * The program and its errors. With `buildInfoFile`, TypeScript's incremental
 * check: the file records each file's hash and diagnostics, and the next check
 * of the same entry re-checks only the files that changed and those that
 * import them (guard-bash: ~0.4 s of a ~0.9 s check saved when nothing
 * changed).
 */
function checkedProgram(roots: readonly string[], options: TS.CompilerOptions, typeRoot: string, buildInfoFile?: string): { program: TS.Program; errors: TS.Diagnostic[] } {
  const ts = typescript();
  const isError = (d: TS.Diagnostic) => d.category === ts.DiagnosticCategory.Error;
  if (buildInfoFile === undefined) {
    const program = ts.createProgram({ rootNames: roots, options, host: compilerHost(typeRoot, options) });
    return { program, errors: hookDiagnostics(program, roots).filter(isError) };
  }
  const incremental = { ...options, incremental: true, tsBuildInfoFile: buildInfoFile };
  const builder = ts.createIncrementalProgram({ rootNames: roots, options: incremental, host: compilerHost(typeRoot, incremental) });
  // Check each file the changes affect, the PDK's bodies passed over as done: the build info then
  // records a complete check. The unchanged files' diagnostics then come from the record.
  const unchecked = pdkBodies(roots);
  while (builder.getSemanticDiagnosticsOfNextAffectedFile(undefined, unchecked) !== undefined);
  const diagnostics = hookDiagnostics(builder, roots);
  try {
    builder.emit(); // noEmit: the build info only
    pruneBuildInfos(buildInfoFile);
  } catch {
    // The build info only saves time: a read-only cache costs the next build a full check.
  }
  return { program: builder.getProgram(), errors: diagnostics.filter(isError) };
}

/**
 * Throws a BuildError listing every error as `file:line:col: error TSnnnn: message`.
 * TypeScript gets a full type-check; JavaScript (and `// @ts-nocheck` files) is checked for
 * globals the engine does not have, so `setImmediate` or `console.profile` fail here, not at run time.
 * `interfaces` are `.d.ts` files declaring the plugin's exports and host functions.
 * `buildInfoFile` ({@link buildInfoPath}): check incrementally, keeping what was checked there.
 */
export function typecheckHook(entry: string, interfaces: readonly string[] = [], buildInfoFile?: string): void {
  const ts = typescript();
  const options = compilerOptions();
  const roots = [entry, jsPdkTypes(), ...interfaces];
  const { program, errors: diagnostics } = checkedProgram(roots, options, dirname(entry), buildInfoFile);
  if (diagnostics.length > 0) {
    throw new BuildError(`type errors:\n${diagnostics.map(format).join('\n')}`);
  }
  const isJs = (f: TS.SourceFile) => /\.[cm]?jsx?$/.test(f.fileName) && !f.fileName.includes('/node_modules/');
  // A second program costs ~1/4 of the check (nothing of the first is reused): only when there is JavaScript to look at.
  if (!program.getSourceFiles().some(isJs)) return;
  const jsOptions = { ...options, checkJs: true };
  const jsProgram = ts.createProgram({ rootNames: roots, options: jsOptions, host: compilerHost(dirname(entry), jsOptions), oldProgram: program });
  const missing = jsProgram
    .getSourceFiles()
    .filter(isJs)
    .flatMap((f) => jsProgram.getSemanticDiagnostics(f))
    .filter(missingGlobal);
  if (missing.length > 0) {
    throw new BuildError(`uses what the hookbox engine does not have (see "Existing extism-js plugins" in hookbox's docs/guides/writing-hooks.md):\n${missing.map(format).join('\n')}`);
  }
}
