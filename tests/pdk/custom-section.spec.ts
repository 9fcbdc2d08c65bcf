// pdk/compiler/source-map.ts's withCustomSection: the section a build appends (the source map)
// is a well-formed wasm custom section that WebAssembly itself reads back byte for byte.
import { describe, expect, it } from 'vitest';
import { withCustomSection } from '../../pdk/compiler/source-map.ts';

/** The WebAssembly API, typed for what this test uses (the project's libs declare no wasm globals). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: { Module: { new (bytes: Uint8Array): object; customSections(m: object, name: string): ArrayBuffer[] } };
  }
).WebAssembly;

/** The smallest module: magic and version, no sections. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

describe('withCustomSection', () => {
  it.each([
    ['a short payload', 'tiny'],
    ['a payload whose length takes a multi-byte LEB128', `{"mappings":"${'AAAA;'.repeat(40_000)}","note":"é ✓"}`],
  ])('appends %s that WebAssembly reads back', (_, payload) => {
    const module = new wasm.Module(withCustomSection(EMPTY_MODULE, 'hookbox.sourcemap', payload));
    const sections = wasm.Module.customSections(module, 'hookbox.sourcemap');
    expect(sections).toHaveLength(1);
    expect(new TextDecoder().decode(sections[0])).toBe(payload);
  });

  it('keeps the module it appends to as it was', () => {
    const out = withCustomSection(EMPTY_MODULE, 'n', 'p');
    expect([...out.subarray(0, EMPTY_MODULE.length)]).toEqual([...EMPTY_MODULE]);
    expect(out.length).toBe(EMPTY_MODULE.length + 1 + 1 + 1 + 1 + 1);
  });
});
