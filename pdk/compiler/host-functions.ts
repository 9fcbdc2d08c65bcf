/**
 * Gives a built plugin the host functions it declared: one wasm import per
 * function (`extism:host/user` `name`, with the declared signature), and the
 * engine's `__hookbox_host_dispatch(index, args, ret)` rewritten to call them
 * (pdk/engine/src/natives-host.c reads arguments from, and the result into,
 * 8-byte slots). Adding imports renumbers every function, so this goes
 * through binaryen (~1–3 s on a ~1 MB module), loaded only then: plugins
 * without host functions never need it, and lose only the dispatch export.
 */

// A variable specifier: binaryen is optional (only plugins that declare host functions need it).
const BINARYEN_PACKAGE = 'binaryen';

async function loadBinaryen(): Promise<Binaryen> {
  try {
    return ((await import(BINARYEN_PACKAGE)) as { default: Binaryen }).default;
  } catch (error) {
    throw new BuildError('this plugin declares host functions (`declare module \'extism:host\'`), which need the npm package binaryen to build; it is not installed', { cause: error });
  }
}
import { BuildError } from '../../host/errors.ts';
import type { Binaryen, BinaryenModule, Expression, ValueType } from './binaryen-api.ts';
import type { HostFunction, WasmValue } from './plugin-interface.ts';

/** The engine export whose body becomes the dispatch (natives-host.c). */
export const HOST_DISPATCH_EXPORT = '__hookbox_host_dispatch';
/** The import module of host functions, as every Extism SDK provides them. */
export const HOST_FUNCTION_MODULE = 'extism:host/user';

// What the engine's libc and QuickJS use (bulk memory, saturating float→int, sign extension);
// binaryen would otherwise refuse them when validating, or write encodings of features we never asked for.
const features = (b: Binaryen): number =>
  b.Features.MVP | b.Features.MutableGlobals | b.Features.SignExt | b.Features.BulkMemory | b.Features.BulkMemoryOpt | b.Features.NontrappingFPToInt;

function typeOf(b: Binaryen, value: WasmValue): ValueType {
  return { i32: b.i32, i64: b.i64, f32: b.f32, f64: b.f64 }[value];
}

/** The dispatch's call of host function `k`, its arguments loaded from the slots at `args`. */
function callOf(b: Binaryen, m: BinaryenModule, fn: HostFunction, importName: string, args: () => Expression): Expression {
  const operands = fn.params.map((type, j) => {
    const at = 8 * j;
    if (type === 'i32') return m.i32.load(at, 4, args());
    if (type === 'i64') return m.i64.load(at, 8, args());
    if (type === 'f32') return m.f32.load(at, 4, args());
    return m.f64.load(at, 8, args());
  });
  return m.call(importName, operands, fn.result === undefined ? b.none : typeOf(b, fn.result));
}

function storeOf(m: BinaryenModule, type: WasmValue, ret: Expression, value: Expression): Expression {
  if (type === 'i32') return m.i32.store(0, 4, ret, value);
  if (type === 'i64') return m.i64.store(0, 8, ret, value);
  if (type === 'f32') return m.f32.store(0, 4, ret, value);
  return m.f64.store(0, 8, ret, value);
}

/** Every call expression under `expr` (a depth-first walk over binaryen's expression info). */
function calls(b: Binaryen, expr: Expression, out: string[] = []): string[] {
  const info = b.getExpressionInfo(expr);
  if (info.id === b.CallId) out.push(info.target as string);
  for (const key of ['children', 'operands']) for (const child of (info[key] as Expression[] | undefined) ?? []) calls(b, child, out);
  for (const key of ['value', 'body', 'condition', 'ifTrue', 'ifFalse']) if (typeof info[key] === 'number' && info[key] !== 0) calls(b, info[key] as Expression, out);
  return out;
}

/**
 * The function that holds the dispatch's C body. wasi-libc links exports of a
 * command module as wrappers (call the function, then run `__wasm_call_dtors`-like
 * cleanup) while C callers call the function itself: follow the wrapper to the
 * one defined function of the same signature it calls.
 */
function wrappedFunction(b: Binaryen, m: BinaryenModule, exported: string): string {
  const outer = b.getFunctionInfo(m.getFunction(exported));
  const inner = calls(b, outer.body)
    .map((name) => b.getFunctionInfo(m.getFunction(name)))
    .filter((f) => f.module === '' && f.params === outer.params && f.results === outer.results);
  return inner.length === 1 ? (inner[0] as { name: string }).name : exported;
}

/** Returns `wasm` with `hostFunctions` imported and the dispatch calling them, and without the dispatch export. */
export async function addHostFunctions(wasm: Uint8Array, hostFunctions: readonly HostFunction[]): Promise<Uint8Array> {
  const b = await loadBinaryen();
  b.setOptimizeLevel(0);
  const m = b.readBinary(wasm);
  try {
    m.setFeatures(features(b));
    let dispatch: string | undefined;
    for (let i = 0; i < m.getNumExports(); i++) {
      const info = b.getExportInfo(m.getExportByIndex(i));
      if (info.name === HOST_DISPATCH_EXPORT) dispatch = info.value;
    }
    if (dispatch === undefined) throw new BuildError(`the engine does not export ${HOST_DISPATCH_EXPORT}`);
    dispatch = wrappedFunction(b, m, dispatch);
    const info = b.getFunctionInfo(m.getFunction(dispatch));
    m.removeFunction(dispatch);
    m.removeExport(HOST_DISPATCH_EXPORT);

    const i32 = b.i32;
    const index = () => m.local.get(0, i32);
    const args = () => m.local.get(1, i32);
    const ret = () => m.local.get(2, i32);
    const cases = hostFunctions.map((fn, k) => {
      const importName = `hookbox$host$${k}`;
      const params = b.createType(fn.params.map((p) => typeOf(b, p)));
      m.addFunctionImport(importName, HOST_FUNCTION_MODULE, fn.name, params, fn.result === undefined ? b.none : typeOf(b, fn.result));
      const call = callOf(b, m, fn, importName, args);
      const run = fn.result === undefined ? call : storeOf(m, fn.result, ret(), call);
      return m.if(m.i32.eq(index(), m.i32.const(k)), m.block(null, [run, m.return(m.i32.const(0))]));
    });
    m.addFunction(dispatch, info.params, info.results, [], m.block(null, [...cases, m.return(m.i32.const(-1))]));
    if (!m.validate()) throw new BuildError('adding host functions produced an invalid module (a hookbox bug)');
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}

const SIGNATURE_CHARS: Record<WasmValue, string> = { i32: 'i', i64: 'I', f32: 'f', f64: 'F' };

/**
 * The script line that tells the engine's `Host.getFunctions()` what the plugin declared:
 * names and signatures as natives-host.c reads them (`iI:i` = (i32, i64) -> i32).
 */
export function hostFunctionTable(hostFunctions: readonly HostFunction[]): string {
  const table = hostFunctions.map((fn) => ({
    name: fn.name,
    signature: `${fn.params.map((p) => SIGNATURE_CHARS[p]).join('')}:${fn.result === undefined ? '' : SIGNATURE_CHARS[fn.result]}`,
  }));
  return `Object.defineProperty(globalThis, '__hookbox_host_functions', { value: Object.freeze(${JSON.stringify(table)}) });\n`;
}
