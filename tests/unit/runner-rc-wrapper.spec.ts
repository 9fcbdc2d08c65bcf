/**
 * The return-code wrapper (rc-wrapper.ts), linked in front of a real guest
 * and run: each wrapper export calls the guest export of the same name and
 * leaves its i32 result in `hookbox_rc`, and the re-exports (memory,
 * `_initialize`, the input reservation, the grow flag) are the guest's own
 * objects, in every combination of options (their index spaces shift with
 * each one).
 */
import { describe, expect, it } from 'vitest';
import { GROW_FAILED_GLOBAL } from '../../host/runner/grow-probe.ts';
import { GUEST_MODULE_NAME, INPUT_RESERVE_EXPORT, RC_GLOBAL, buildRcWrapper } from '../../host/runner/rc-wrapper.ts';
import { INIT_EXPORT } from '../../host/runner/wasi/index.ts';
import type { WasmGlobal, WasmMemory } from '../../host/runner/wasm-api.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { instantiateBytes } from '../helpers/wasm-js.ts';

const GUEST = `(module
  (memory (export "memory") 1 2)
  (global (export "${GROW_FAILED_GLOBAL}") (mut i32) (i32.const 0))
  (global $inits (mut i32) (i32.const 0))
  (func (export "pre_tool") (result i32) (i32.const 7))
  (func (export "post_tool") (result i32) (i32.const -3))
  (func (export "${INIT_EXPORT}") (global.set $inits (i32.add (global.get $inits) (i32.const 1))) (i32.store (i32.const 0) (global.get $inits)))
  (func (export "${INPUT_RESERVE_EXPORT}") (param i32) (result i32) (i32.add (local.get 0) (i32.const 1000))))`;

type Fn = (...args: number[]) => number;

async function link(wrapperBytes: Uint8Array) {
  const guest = await instantiateBytes(await compileWatSource(GUEST));
  const wrapper = await instantiateBytes(wrapperBytes, { [GUEST_MODULE_NAME]: guest.exports });
  return { guest: guest.exports, wrapper: wrapper.exports };
}

const ALL_COMBINATIONS = [false, true].flatMap((memory) =>
  [false, true].flatMap((init) => [false, true].flatMap((grow) => [false, true].map((reserve) => ({ memory, init, grow, reserve })))),
);

describe('buildRcWrapper', () => {
  it.each(ALL_COMBINATIONS)('memory $memory, init $init, grow flag $grow, input reserve $reserve: results land in the rc global, re-exports are the guest\'s', async (options) => {
    const { guest, wrapper } = await link(buildRcWrapper(['pre_tool', 'post_tool'], options.memory, options.init, options.grow, options.reserve));
    const names = Object.keys(wrapper);
    const expected = ['pre_tool', 'post_tool', RC_GLOBAL];
    if (options.init) expected.push(INIT_EXPORT);
    if (options.reserve) expected.push(INPUT_RESERVE_EXPORT);
    if (options.memory) expected.push('memory');
    if (options.grow) expected.push(GROW_FAILED_GLOBAL);
    expect(names).toEqual(expected);
    const rc = wrapper[RC_GLOBAL] as WasmGlobal;
    expect(rc.value).toBe(0);
    expect((wrapper.pre_tool as Fn)()).toBe(7);
    expect(rc.value).toBe(7);
    expect((wrapper.post_tool as Fn)()).toBe(-3);
    expect(rc.value).toBe(-3);
    if (options.memory) expect(wrapper.memory).toBe(guest.memory);
    if (options.grow) {
      const flag = wrapper[GROW_FAILED_GLOBAL] as WasmGlobal;
      (guest[GROW_FAILED_GLOBAL] as WasmGlobal).value = 1;
      expect(flag.value).toBe(1);
      flag.value = 0;
      expect((guest[GROW_FAILED_GLOBAL] as WasmGlobal).value).toBe(0);
    }
    if (options.init) {
      (wrapper[INIT_EXPORT] as Fn)();
      (wrapper[INIT_EXPORT] as Fn)();
      expect(new Int32Array((guest.memory as WasmMemory).buffer)[0]).toBe(2);
      expect(rc.value).toBe(-3); // init is re-exported as is, not through the rc global
    }
    if (options.reserve) expect((wrapper[INPUT_RESERVE_EXPORT] as Fn)(24)).toBe(1024);
  });

  it('wraps any number of exports (index LEBs past one byte) and none', async () => {
    const names = Array.from({ length: 130 }, (_, i) => `e${i}`);
    const guestText = `(module ${names.map((name, i) => `(func (export "${name}") (result i32) (i32.const ${i}))`).join(' ')})`;
    const guest = await instantiateBytes(await compileWatSource(guestText));
    const wrapper = (await instantiateBytes(buildRcWrapper(names, false, true, false, true), {
      [GUEST_MODULE_NAME]: { ...guest.exports, [INIT_EXPORT]: () => {}, [INPUT_RESERVE_EXPORT]: (n: number) => n * 2 },
    })).exports;
    expect((wrapper.e129 as Fn)()).toBe(129);
    expect((wrapper[RC_GLOBAL] as WasmGlobal).value).toBe(129);
    expect((wrapper.e0 as Fn)()).toBe(0);
    expect((wrapper[INPUT_RESERVE_EXPORT] as Fn)(21)).toBe(42);
    const empty = await instantiateBytes(buildRcWrapper([], false), {});
    expect(Object.keys(empty.exports)).toEqual([RC_GLOBAL]);
  });
});
