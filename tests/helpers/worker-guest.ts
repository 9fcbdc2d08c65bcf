/**
 * A real guest for tests that drive a runner worker through its
 * `WorkerHandle` (tests/unit/runner-worker-*.spec.ts), compiled as the
 * runner compiles one: prepared module plus its return-code wrapper.
 *
 * Its exports, one behaviour each:
 *   pre_tool           output = the input bytes, unchanged
 *   post_tool          logs "hello from the guest" (info), then output = the input
 *   prompt_submit      error_set "worker-test: refused", returns 1 (a plugin error with an exit)
 *   turn_continuation  recurses until the stack overflows: the instance is discarded
 *   session_start      returns 0 without output (no opinion)
 *   echo_plus          (plain export) output = the input, then 16 zero bytes
 *   forever            (plain export) never returns
 *   host_exit          (plain export, crash variant only) calls the host function `exit_worker`
 *   host_throw         (plain export, crash variant only) calls the host function `throw_later`
 *   host_block         (plain export, crash variant only) calls the host function `block_worker`, which
 *                      blocks the worker thread for as many milliseconds as the input has bytes (a call
 *                      that surely takes at least that long)
 * Its linear memory is one page, fixed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InstanceOptions } from '../../host/runner/extism-adapter.ts';
import { compileHookModule } from '../../host/runner/hook-module.ts';
import { compileWatSource } from './wat.ts';
import { extismModule } from './wat-module.ts';

/** The guest's plain (non-seam) exports, in channel order after the seam exports. */
export const PLAIN_EXPORTS = ['echo_plus', 'forever'] as const;
/** The crash variant's plain exports. */
export const CRASH_EXPORTS = ['host_exit', 'host_throw', 'host_block'] as const;
/** How long `host_block` holds the worker thread. */
export const BLOCK_MS = 400;
/** What `prompt_submit` reports through `error_set`. */
export const REFUSAL = 'worker-test: refused';
/** What `post_tool` logs. */
export const GREETING = 'hello from the guest';
/** What `throw_later` throws in the worker, outside any call. */
export const HOST_THROW_MESSAGE = 'worker-test host function threw';

function watSource(crash: boolean): string {
  return extismModule(`(data (i32.const 0) "${REFUSAL}")
  (data (i32.const 32) "${GREETING}")
  (func $text (param $ptr i32) (param $len i32) (result i64)
    (local $block i64) (local $i i32)
    (local.set $block (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done (loop $copy
      (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
      (call $store_u8 (i64.add (local.get $block) (i64.extend_i32_u (local.get $i)))
        (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $copy)))
    (local.get $block))
  (func $echo (param $extra i64)
    (local $n i64) (local $block i64) (local $i i64)
    (local.set $n (call $input_length))
    (local.set $block (call $alloc (i64.add (local.get $n) (local.get $extra))))
    (block $done (loop $copy
      (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
      (call $store_u8 (i64.add (local.get $block) (local.get $i)) (call $input_load_u8 (local.get $i)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $copy)))
    (call $output_set (local.get $block) (i64.add (local.get $n) (local.get $extra))))
  (func (export "pre_tool") (result i32) (call $echo (i64.const 0)) (i32.const 0))
  (func (export "post_tool") (result i32)
    (call $log_info (call $text (i32.const 32) (i32.const ${GREETING.length})))
    (call $echo (i64.const 0))
    (i32.const 0))
  (func (export "prompt_submit") (result i32)
    (call $error_set (call $text (i32.const 0) (i32.const ${REFUSAL.length})))
    (i32.const 1))
  (func $recurse (call $recurse))
  (func (export "turn_continuation") (result i32) (call $recurse) (i32.const 0))
  (func (export "session_start") (result i32) (i32.const 0))
  (func (export "echo_plus") (result i32) (call $echo (i64.const 16)) (i32.const 0))
  (func (export "forever") (result i32) (loop $spin (br $spin)) (i32.const 0))
  ${crash ? '(func (export "host_exit") (result i32) (drop (call $exit_worker (i64.const 0))) (i32.const 0))' : ''}
  ${crash ? '(func (export "host_throw") (result i32) (drop (call $throw_later (i64.const 0))) (i32.const 0))' : ''}
  ${crash ? '(func (export "host_block") (result i32) (drop (call $block_worker (call $input_length))) (i32.const 0))' : ''}`, {
    imports: crash
      ? [
          '(import "extism:host/user" "exit_worker" (func $exit_worker (param i64) (result i64)))',
          '(import "extism:host/user" "throw_later" (func $throw_later (param i64) (result i64)))',
          '(import "extism:host/user" "block_worker" (func $block_worker (param i64) (result i64)))',
        ]
      : [],
  });
}

/** The host functions of the crash variant: two take the worker down, one holds it. */
const HOST_FUNCTIONS = `
export function exit_worker() { process.exit(3); }
export function block_worker(_context, ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms)); return 0n; }
export function throw_later() { setTimeout(() => { throw new Error(${JSON.stringify(HOST_THROW_MESSAGE)}); }); return 0n; }
`;

/** What `WorkerHandle.create` takes for the guest: its modules and instance options. */
export interface WorkerGuest {
  readonly modules: { guest: WebAssembly.Module; wrapper: WebAssembly.Module };
  readonly options: Omit<InstanceOptions, 'guest' | 'wrapper'>;
}

/**
 * Compiles the guest. `crash` adds the host-function exports; `dir` is where
 * their module is written (a temporary directory the caller removes).
 */
export async function workerGuest(crash?: { dir: string }): Promise<WorkerGuest> {
  const bytes = await compileWatSource(watSource(crash !== undefined), 'worker-guest.wat');
  const plainExports = [...PLAIN_EXPORTS, ...(crash !== undefined ? CRASH_EXPORTS : [])];
  const compiled = await compileHookModule(bytes, 'worker-guest', 'worker-guest.wasm', { memoryMb: 16, plainExports });
  let hostFunctions: string | undefined;
  if (crash !== undefined) {
    const file = join(crash.dir, 'host-functions.mjs');
    await writeFile(file, HOST_FUNCTIONS);
    hostFunctions = pathToFileURL(file).href;
  }
  return {
    modules: { guest: compiled.guest, wrapper: compiled.wrapper },
    options: {
      config: {},
      memoryMb: 16,
      memoryMaxPages: compiled.prepared.memory?.max,
      maxOutputBytes: 1 << 24,
      plainExports,
      ...(hostFunctions !== undefined && { hostFunctions }),
    },
  };
}

/** Compiles a WAT guest the way the runner does, with no plain exports. */
export async function watGuest(source: string, name: string): Promise<WorkerGuest> {
  const compiled = await compileHookModule(await compileWatSource(source, `${name}.wat`), name, `${name}.wasm`, { memoryMb: 16, plainExports: [] });
  return {
    modules: { guest: compiled.guest, wrapper: compiled.wrapper },
    options: { config: {}, memoryMb: 16, memoryMaxPages: compiled.prepared.memory?.max, maxOutputBytes: 1 << 20 },
  };
}

/** A module that does not instantiate: it imports a function no host provides. */
export function unlinkableGuest(): Promise<WorkerGuest> {
  return watGuest('(module (import "nowhere" "nothing" (func)) (memory (export "memory") 1 1) (func (export "pre_tool") (result i32) (i32.const 0)))', 'unlinkable');
}

/**
 * Whether a macrotask queued now runs before `work` settles: false when the reply was read in the
 * handle's spin, before the event loop turned.
 */
export async function eventLoopTurnedBefore(work: () => Promise<unknown>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await work();
  return turned;
}
