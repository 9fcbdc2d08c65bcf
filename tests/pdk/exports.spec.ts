/**
 * What `hookbox/pdk` exports: every type `npm run gen` writes into
 * pdk/generated/seams.ts (a new seam's payload and decision types included)
 * reaches the PDK's entry, read by the TypeScript checker from the entry's
 * own exports — there is no hand-kept list to forget.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../pdk/index.ts', import.meta.url));
const GENERATED = fileURLToPath(new URL('../../pdk/generated/seams.ts', import.meta.url));

/** The names a module exports, as the checker resolves them. */
function exportsOf(program: ts.Program, file: string): Set<string> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not in the program`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${file} is no module`);
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.getName()));
}

/** The type names a module exports (interfaces, type aliases, re-exported types). */
function typeExportsOf(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Type) !== 0;
    })
    .map((symbol) => symbol.getName());
}

describe('hookbox/pdk exports', () => {
  const program = ts.createProgram([ENTRY, GENERATED], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, allowImportingTsExtensions: true, noEmit: true, strict: true });

  it('every generated type (each seam\'s payload and decision, the envelope, the session) is exported from the PDK entry', () => {
    const generated = typeExportsOf(program, GENERATED);
    expect(generated).toEqual(expect.arrayContaining(['SessionStartPayload', 'PreToolDecision', 'Envelope', 'SeamTypes', 'SeamId']));
    const entry = exportsOf(program, ENTRY);
    expect(generated.filter((name) => !entry.has(name))).toEqual([]);
  });
});
