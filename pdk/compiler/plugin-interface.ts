/**
 * Reads a plugin's interface declarations, as js-pdk authors write them in a
 * `.d.ts` beside the entry (or in the entry itself):
 *
 * ```ts
 * declare module 'main' { export function greet(): I32; }
 * declare module 'extism:host' { interface user { add3(a: I32, b: I32, c: I32): I32; } }
 * ```
 *
 * `main` lists the exports the build must produce; `extism:host`'s `user`
 * interface lists the host functions, which become wasm imports of module
 * `extism:host/user` with the signature their parameter types name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type TS from 'typescript';
import { BuildError } from '../../host/errors.ts';
import { typescript } from './typescript.ts';

/** A WebAssembly value type as js-pdk's type names spell it. */
export type WasmValue = 'i32' | 'i64' | 'f32' | 'f64';

/** One declared host function: name, parameter types, result type (none for `void`). */
export interface HostFunction {
  readonly name: string;
  readonly params: readonly WasmValue[];
  readonly result: WasmValue | undefined;
}

/** What a plugin's declarations say. */
export interface PluginInterface {
  /** `.d.ts` files the declarations came from (they join the type-check). */
  readonly files: readonly string[];
  /** Exports declared in `declare module 'main'`, in declaration order. */
  readonly exports: readonly { name: string; where: string }[];
  /** Host functions of `extism:host`'s `user` interface, in declaration order (their index is their id). */
  readonly hostFunctions: readonly HostFunction[];
}

const TYPE_NAMES: Record<string, WasmValue> = { I32: 'i32', I64: 'i64', PTR: 'i64', F32: 'f32', F64: 'f64' };

const DECLARES_PLUGIN = /declare\s+module\s+['"](?:main|extism:host)['"]/;

/** The entry, plus every `.d.ts` in its directory, that declares `main` or `extism:host`, with their text. */
function declaringFiles(entry: string): { file: string; text: string }[] {
  const dir = dirname(entry);
  const dts = readdirSync(dir)
    .filter((n) => n.endsWith('.d.ts'))
    .sort()
    .map((n) => join(dir, n));
  return [entry, ...dts].map((file) => ({ file, text: readFileSync(file, 'utf8') })).filter(({ text }) => DECLARES_PLUGIN.test(text));
}

/**
 * The `.d.ts` files beside `entry` that declare the plugin's interface (they join the type-check),
 * found without the TypeScript compiler: the type-check can start before {@link readPluginInterface} parses them.
 */
export function pluginInterfaceFiles(entry: string): string[] {
  return declaringFiles(entry)
    .map(({ file }) => file)
    .filter((file) => file !== entry);
}

function position(source: TS.SourceFile, node: TS.Node): string {
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `${source.fileName}:${line + 1}:${character + 1}`;
}

function wasmType(source: TS.SourceFile, node: TS.TypeNode | undefined, what: string, allowVoid: boolean): WasmValue | undefined {
  const ts = typescript();
  if (node === undefined || (allowVoid && node.kind === ts.SyntaxKind.VoidKeyword)) return undefined;
  const name = ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) ? node.typeName.text : node.getText(source);
  const type = TYPE_NAMES[name];
  if (type === undefined) {
    throw new BuildError(`${position(source, node)}: ${what} has type ${name}; a host function takes and returns I32, I64 (or PTR), F32 or F64${allowVoid ? ', or returns void' : ''}`);
  }
  return type;
}

/** Reads the `main` and `extism:host` declarations of the plugin whose entry is `entry`. */
export function readPluginInterface(entry: string): PluginInterface {
  const files: string[] = [];
  const exports: { name: string; where: string }[] = [];
  const hostFunctions: HostFunction[] = [];
  // The compiler (~0.4 s to load) only when a file declares something: most hooks have no such file.
  for (const { file, text } of declaringFiles(entry)) {
    const ts = typescript();
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    if (file !== entry) files.push(file);
    for (const statement of source.statements) {
      if (!ts.isModuleDeclaration(statement) || !ts.isStringLiteral(statement.name) || statement.body === undefined || !ts.isModuleBlock(statement.body)) continue;
      const module = statement.name.text;
      for (const member of statement.body.statements) {
        if (module === 'main' && ts.isFunctionDeclaration(member) && member.name) {
          exports.push({ name: member.name.text, where: position(source, member) });
        } else if (module === 'extism:host' && ts.isInterfaceDeclaration(member) && member.name.text === 'user') {
          for (const fn of member.members) {
            if (!ts.isMethodSignature(fn) || !ts.isIdentifier(fn.name)) {
              throw new BuildError(`${position(source, fn)}: declare each host function as a method: name(a: I64): I64`);
            }
            const name = fn.name.text;
            if (hostFunctions.some((h) => h.name === name)) throw new BuildError(`${position(source, fn)}: host function ${name} is declared twice`);
            hostFunctions.push({
              name,
              params: fn.parameters.map((p) => wasmType(source, p.type, `parameter ${p.name.getText(source)} of ${name}`, false) as WasmValue),
              result: wasmType(source, fn.type, `the result of ${name}`, true),
            });
          }
        }
      }
    }
  }
  return { files, exports, hostFunctions };
}

/** Fails the build when a function declared in `declare module 'main'` is not among the built exports. */
export function checkDeclaredExports(plugin: PluginInterface, built: readonly string[]): void {
  const missing = plugin.exports.filter((e) => !built.includes(e.name));
  if (missing.length > 0) {
    const lines = missing.map((e) => `${e.where}: declared export ${e.name} is not exported by the module (it exports: ${built.join(', ') || 'nothing'})`);
    throw new BuildError(lines.join('\n'));
  }
}
