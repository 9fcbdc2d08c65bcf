// What the hook type-check covers (pdk/compiler/typecheck.ts): every file of the hook, wherever
// the error is, and what the hook uses of the PDK; not the function bodies of hookbox's own PDK
// sources, which this suite checks clean under the hook's options instead.
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../host/errors.ts';
import { HOOK_COMPILER_OPTIONS, jsPdkTypes, typecheckHook } from '../../pdk/compiler/typecheck.ts';
import { tempDir, writeHookSource } from './support.ts';

const PDK = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'pdk');
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

function typeErrors(entry: string): string {
  try {
    typecheckHook(entry);
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    return (error as Error).message;
  }
  throw new Error(`${entry} type-checked clean`);
}

describe('the hook type-check', () => {
  it("reports an error in a module the entry imports, at that module's file:line:col", async () => {
    const entry = await writeHookSource(dir, 'helper-error', `import { defineHook } from PDK;\nimport { verdict } from './helper.ts';\nexport default defineHook({ preTool: verdict });\n`);
    const helper = join(dirname(entry), 'helper.ts');
    await writeFile(helper, `import { allow } from ${JSON.stringify(join(PDK, 'index.ts'))};\nexport function verdict() {\n  const n: number = 'one';\n  return allow(String(n));\n}\n`);
    expect(typeErrors(entry)).toContain(`${helper}:3:9: error TS2322`);
  });

  it("reports a hook's misuse of the PDK's types", async () => {
    const entry = await writeHookSource(dir, 'pdk-misuse', `import { defineHook } from PDK;\nexport default defineHook({\n  preTool: (p, ctx) => { ctx.config.get(42); },\n});\n`);
    expect(typeErrors(entry)).toContain(`${entry}:3:41: error TS2345`);
  });

  it('passes a hook without errors', async () => {
    const entry = await writeHookSource(dir, 'clean', `import { allow, defineHook } from PDK;\nexport default defineHook({ preTool: () => allow() });\n`);
    expect(() => typecheckHook(entry)).not.toThrow();
  });
});

describe("the PDK's own sources (whose bodies a hook's check skips)", () => {
  it("type-check clean under the hook's compiler options and globals", () => {
    const { options, errors } = ts.convertCompilerOptionsFromJson(HOOK_COMPILER_OPTIONS, PDK);
    expect(errors).toEqual([]);
    const roots = [join(PDK, 'index.ts'), join(PDK, 'runtime', 'collect-exports.ts'), jsPdkTypes()];
    const program = ts.createProgram({ rootNames: roots, options });
    const inPdk = program.getSourceFiles().filter((f) => f.fileName.startsWith(`${PDK}/`) && !f.isDeclarationFile);
    // The program holds the PDK's runtime, not only its index.
    expect(inPdk.map((f) => f.fileName)).toEqual(expect.arrayContaining([join(PDK, 'define-hook.ts'), join(PDK, 'runtime', 'dispatch.ts')]));
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });
});
