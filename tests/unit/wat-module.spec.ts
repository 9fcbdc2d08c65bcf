/** The test hooks' preamble helper (tests/helpers/wat-module.ts): it imports what a body calls, typed by the kernel ABI table, and nothing else. */
import { describe, expect, it } from 'vitest';
import { EXTISM_KERNEL } from '../../pdk/compiler/host-stub.ts';
import { compileExtismModule, extismModule } from '../helpers/wat-module.ts';

interface WasmModuleApi {
  Module: { new (bytes: Uint8Array): object; imports(module: object): { module: string; name: string; kind: string }[]; exports(module: object): { name: string; kind: string }[] };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmModuleApi }).WebAssembly;

describe('extismModule', () => {
  it('imports each kernel function the body calls, once, and no other; exports the memory', async () => {
    const bytes = await compileExtismModule(`(func (export "pre_tool") (result i32)
      (call $output_set (call $alloc (call $input_length)) (call $input_length))
      (i32.const 0))`);
    const module = new wasm.Module(bytes);
    // `$input_length` is not `$length`: each name is matched whole.
    expect(wasm.Module.imports(module).map((entry) => `${entry.module}::${entry.name}`).sort()).toEqual(['extism:host/env::alloc', 'extism:host/env::input_length', 'extism:host/env::output_set']);
    expect(wasm.Module.exports(module)).toEqual([
      { name: 'memory', kind: 'memory' },
      { name: 'pre_tool', kind: 'function' },
    ]);
  });

  it('declares every kernel function with the signature of EXTISM_KERNEL, so a call of each compiles', async () => {
    const calls = Object.entries(EXTISM_KERNEL).map(([name, [params, results]]) => {
      const args = params.map((type) => (type === 0x7e ? '(i64.const 0)' : '(i32.const 0)')).join(' ');
      return results.length === 0 ? `(call $${name} ${args})` : `(drop (call $${name} ${args}))`;
    });
    const bytes = await compileExtismModule(`(func (export "all") ${calls.join(' ')})`);
    expect(wasm.Module.imports(new wasm.Module(bytes))).toHaveLength(Object.keys(EXTISM_KERNEL).length);
  });

  it('puts further imports before the memory, and takes the memory limits asked for', () => {
    const text = extismModule('(func (export "f") (drop (call $probe (i64.const 1))))', { memory: '2 4', imports: ['(import "extism:host/user" "probe" (func $probe (param i64) (result i64)))'] });
    expect(text).toBe('(module\n  (import "extism:host/user" "probe" (func $probe (param i64) (result i64)))\n  (memory (export "memory") 2 4)\n  (func (export "f") (drop (call $probe (i64.const 1)))))');
  });
});
