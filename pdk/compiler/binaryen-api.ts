/**
 * The part of binaryen.js's API that host-functions.ts uses, typed here:
 * binaryen is loaded only when a plugin declares host functions, so the
 * compiler does not depend on its type declarations.
 */
/** A binaryen expression reference. */
export type Expression = number;
/** A binaryen value type (`i32`, …, `none`, or a tuple from `createType`). */
export type ValueType = number;

interface Memory {
  load(offset: number, align: number, ptr: Expression): Expression;
  store(offset: number, align: number, ptr: Expression, value: Expression): Expression;
}

/** A module being rewritten. */
export interface BinaryenModule {
  setFeatures(features: number): void;
  getNumExports(): number;
  getExportByIndex(index: number): number;
  getFunction(name: string): number;
  removeFunction(name: string): void;
  removeExport(name: string): void;
  addFunctionImport(internalName: string, module: string, base: string, params: ValueType, results: ValueType): void;
  addFunction(name: string, params: ValueType, results: ValueType, vars: ValueType[], body: Expression): number;
  validate(): number;
  emitBinary(): Uint8Array;
  dispose(): void;
  local: { get(index: number, type: ValueType): Expression };
  i32: Memory & { const(value: number): Expression; eq(a: Expression, b: Expression): Expression };
  i64: Memory;
  f32: Memory;
  f64: Memory;
  call(target: string, operands: Expression[], result: ValueType): Expression;
  if(condition: Expression, ifTrue: Expression, ifFalse?: Expression): Expression;
  block(label: string | null, children: Expression[], type?: ValueType): Expression;
  return(value?: Expression): Expression;
}

/** The binaryen.js module object. */
export interface Binaryen {
  readBinary(bytes: Uint8Array): BinaryenModule;
  setOptimizeLevel(level: number): void;
  createType(types: ValueType[]): ValueType;
  getExportInfo(ref: number): { name: string; value: string };
  getFunctionInfo(ref: number): { name: string; module: string; params: ValueType; results: ValueType; body: Expression };
  getExpressionInfo(ref: Expression): Record<string, unknown> & { id: number };
  readonly CallId: number;
  readonly i32: ValueType;
  readonly i64: ValueType;
  readonly f32: ValueType;
  readonly f64: ValueType;
  readonly none: ValueType;
  readonly Features: Record<'MVP' | 'MutableGlobals' | 'SignExt' | 'BulkMemory' | 'BulkMemoryOpt' | 'NontrappingFPToInt', number>;
}
