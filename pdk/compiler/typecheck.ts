/**
 * Type-checks a hook with the TypeScript API before it is bundled: esbuild
 * only strips types. The environment is the hook's: ES2020 plus the js-pdk
 * globals (`Host`, `Config`, `Var`, …) from @extism/js-pdk, no Node.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type TS from 'typescript';
import { typescript } from './typescript.ts';
import { BuildError } from '../../host/errors.ts';

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
  return options;
}

// The js-pdk declarations, found from this package (a hook project need not
// depend on @extism/js-pdk itself); its package exports only types for ".".
export function jsPdkTypes(): string {
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('@extism/js-pdk') ?? []) {
    const file = join(dir, '@extism', 'js-pdk', 'dist', 'index.d.ts');
    if (existsSync(file)) return file;
  }
  throw new BuildError('cannot find @extism/js-pdk (its type declarations are needed to type-check hooks)');
}

// Library .d.ts files parsed once per process: later builds (tests, watch) reuse them.
const libCache = new Map<string, TS.SourceFile>();

function compilerHost(typeRoot: string, options: TS.CompilerOptions): TS.CompilerHost {
  const host = typescript().createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const cacheable = fileName.includes('/node_modules/');
    const cached = cacheable ? libCache.get(fileName) : undefined;
    if (cached) return cached;
    const file = getSourceFile(fileName, languageVersion, onError, shouldCreate);
    if (file && cacheable) libCache.set(fileName, file);
    return file;
  };
  host.getCurrentDirectory = () => typeRoot;
  return host;
}

function format(d: TS.Diagnostic): string {
  const text = typescript().flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return `error TS${d.code}: ${text}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${d.file.fileName}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
}

/** Throws a BuildError listing every error as `file:line:col: error TSnnnn: message`. */
export function typecheckHook(entry: string): void {
  const ts = typescript();
  const options = compilerOptions();
  const program = ts.createProgram({ rootNames: [entry, jsPdkTypes()], options, host: compilerHost(dirname(entry), options) });
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) {
    throw new BuildError(`type errors:\n${diagnostics.map(format).join('\n')}`);
  }
}
