// Finding 7a: a guest growing 16 MiB at a time is refused short of its cap (the
// last step does not fit), then traps, as C does when malloc fails. That was
// reported as a plain `trap`; it is a `memory` fault. The runner instruments
// every `memory.grow` (host/runner/grow-probe.ts) rather than guessing from the
// trap's text or the memory's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import { instrumentMemoryGrow } from '../../host/runner/grow-probe.ts';
import { compileWatSource } from '../helpers/wat.ts';
import { callSeam } from './harness.ts';

/**
 * Grows 256 pages (16 MiB) at a time; declared maximum 1000 pages (62.5 MiB), so after three
 * steps (1 + 768 pages) the fourth is refused at 769 pages, well short of the cap; then traps.
 * `mode` = what it does after the refusal.
 */
const stepper = (after: string) => `
(module
  (memory (export "memory") 1 1000)
  (func (export "pre_tool") (result i32)
    (loop $grow
      (br_if $grow (i32.ne (memory.grow (i32.const 256)) (i32.const -1))))
    ${after})
  ;; block type 0x40 (empty) and i32.const 0x40 next to memory.grow: the rewrite must decode, not scan bytes
  (func (export "post_tool") (result i32)
    (block (drop (i32.const 64)))
    (drop (memory.grow (i32.const 0)))
    (i32.const 0)))`;

let runner: HookRunner;
beforeAll(async () => {
  runner = await HookRunner.start({ workers: 1, spareWorker: false });
});
afterAll(async () => {
  await runner?.close();
});

describe('a refused memory.grow short of the cap', () => {
  it('then a trap: memory fault, not trap (the memory is below its cap)', async () => {
    const hook = await runner.load({ name: 'stepper', wasm: await compileWatSource(stepper('unreachable')), limits: { memoryMb: 64 } });
    try {
      const result = await callSeam(hook, 'tools/pre-execute');
      expect(result.fault).toEqual({ kind: 'memory', message: expect.stringMatching(/^refused memory .*then: unreachable$/) });
      expect(result.decision).toMatchObject({ action: 'deny' });
      // The instance was discarded: the next call starts from 1 page again and faults the same way.
      expect((await callSeam(hook, 'tools/pre-execute')).fault?.kind).toBe('memory');
    } finally {
      await hook.close();
    }
  });

  it('a refused grow the guest copes with is no fault; a trap with no refused grow stays a trap', async () => {
    const hook = await runner.load({ name: 'copes', wasm: await compileWatSource(stepper('(i32.const 0)')), limits: { memoryMb: 64 } });
    try {
      // Output-less success: no opinion, no fault, even though a grow was refused.
      expect((await callSeam(hook, 'tools/pre-execute')).fault).toBeUndefined();
      expect((await callSeam(hook, 'tools/post-execute')).fault).toBeUndefined();
    } finally {
      await hook.close();
    }
    const trap = await runner.load({
      name: 'trap-only',
      wasm: await compileWatSource(`(module (memory (export "memory") 1 16) (func (export "pre_tool") (result i32) (drop (memory.grow (i32.const 1))) unreachable))`),
    });
    try {
      expect((await callSeam(trap, 'tools/pre-execute')).fault).toEqual({ kind: 'trap', message: 'unreachable' });
    } finally {
      await trap.close();
    }
  });

  it('the rewrite leaves modules without memory.grow untouched and keeps instrumented ones valid', async () => {
    const plain = await compileWatSource(`(module (memory (export "memory") 1 16) (func (export "pre_tool") (result i32) (i32.const 0)))`);
    expect(instrumentMemoryGrow(plain)).toBeUndefined();
    const instrumented = instrumentMemoryGrow(await compileWatSource(stepper('unreachable')));
    expect(instrumented).toBeInstanceOf(Uint8Array);
    const api = (globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly;
    expect(api.validate(instrumented as Uint8Array)).toBe(true);
  });
});
