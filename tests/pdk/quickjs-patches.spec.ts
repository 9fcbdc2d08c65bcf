/**
 * The QuickJS patches (pdk/engine/quickjs-patches.ts) on the real upstream
 * sources from the qjsc package: the one-pass byte edit gives exactly what
 * applying each patch to the text in turn gives, and a source a patch does
 * not fit exactly once (another QuickJS release) fails the build by name.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildError } from '../../host/errors.ts';
import { LIBREGEXP_PATCHES, type Patch, QUICKJS_PATCHES, applyPatches, patchLibregexp, patchQuickjs } from '../../pdk/engine/quickjs-patches.ts';

const QUICKJS_DIR = join(dirname(createRequire(import.meta.url).resolve('qjsc/package.json')), 'deps', 'quickjs_2021_03_27');
const quickjs = readFileSync(join(QUICKJS_DIR, 'quickjs.c'));
const libregexp = readFileSync(join(QUICKJS_DIR, 'libregexp.c'));
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The reference: each patch replaces its one occurrence in the text the previous ones left. */
function patchInTurn(source: string, patches: readonly Patch[]): string {
  let out = source;
  for (const patch of patches) {
    const at = out.indexOf(patch.find);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(out.indexOf(patch.find, at + 1)).toBe(-1);
    out = out.slice(0, at) + patch.replace + out.slice(at + patch.find.length);
  }
  return out;
}

describe('QuickJS patches', () => {
  it('quickjs.c: every patch applied as a text edit in turn, then the appendix', () => {
    const patched = text(patchQuickjs(quickjs));
    const reference = patchInTurn(text(quickjs), QUICKJS_PATCHES);
    expect(patched.startsWith(reference)).toBe(true);
    expect(patched.slice(reference.length)).toContain('/* hookbox: appended by pdk/engine/quickjs-patches.ts */');
    expect(patched).not.toBe(text(quickjs));
  });

  it('libregexp.c: the same, with nothing appended', () => {
    expect(LIBREGEXP_PATCHES.length).toBeGreaterThan(0);
    const patched = text(patchLibregexp(libregexp));
    expect(patched).toBe(patchInTurn(text(libregexp), LIBREGEXP_PATCHES));
    expect(patched).not.toBe(text(libregexp));
    const [first] = LIBREGEXP_PATCHES as [Patch];
    expect(() => patchLibregexp(Buffer.from(text(libregexp).replace(first.find, '')))).toThrow(`engine build: libregexp.c patch does not apply exactly once (${first.why})`);
  });

  it('patches at the very start, side by side, and in any order; overlapping ones fail the build', () => {
    const source = Buffer.from('alpha beta gamma');
    const patch = (find: string, replace: string): Patch => ({ why: `${find} → ${replace}`, find, replace });
    expect(text(applyPatches(source, [patch('gamma', 'G'), patch('alpha', 'A'), patch(' beta', ' B')], 'x.c', '!'))).toBe('A B G!');
    expect(() => applyPatches(source, [patch('alpha beta', 'AB'), patch('beta gamma', 'BG')], 'x.c')).toThrow('engine build: x.c patch overlaps another (beta gamma → BG)');
    expect(() => applyPatches(source, [patch('a', 'A')], 'x.c')).toThrow('engine build: x.c patch does not apply exactly once (a → A)');
  });

  it('a patch whose text is missing, or there twice, fails the build naming why it exists', () => {
    const [first] = QUICKJS_PATCHES as [Patch];
    const missing = Buffer.from(text(quickjs).replace(first.find, ''));
    expect(() => patchQuickjs(missing)).toThrow(BuildError);
    expect(() => patchQuickjs(missing)).toThrow(`QuickJS patch does not apply exactly once (${first.why})`);
    const twice = Buffer.concat([quickjs, Buffer.from(`\n${first.find}\n`)]);
    expect(() => patchQuickjs(twice)).toThrow(`QuickJS patch does not apply exactly once (${first.why})`);
  });

  it.each([
    ['int interrupt_counter;', 'int interrupt_count;'],
    ['uint64_t random_state;', 'uint64_t random_seed;'],
  ])('the JSContext fields the appendix reaches must be in the upstream source: %s', (field, renamed) => {
    const without = Buffer.from(text(quickjs).replace(field, renamed));
    expect(() => patchQuickjs(without)).toThrow(`engine build: JSContext field not found: ${field}`);
  });
});
