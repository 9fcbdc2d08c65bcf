;; deep-nesting — every seam export returns 60,001 bytes of valid msgpack:
;; 60,000 nested one-element arrays (0x91 x 60,000) around a nil (0xc0).
;; Small enough to pass a 64 KiB output cap, deep enough to overflow a
;; recursive decoder (msgpackr throws RangeError: Maximum call stack size
;; exceeded at 20,000 levels on a worker's default stack, 5,000 on the main
;; thread's). The host's decoder must turn that into a `decode` fault, in the
;; host, without crashing the thread that decodes.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  (func $nest (result i32)
    (local $block i64) (local $i i64)
    (local.set $block (call $alloc (i64.const 60001)))
    ;; 0x91 x 8 per store; 60,000 is a multiple of 8
    (block $done
      (loop $open
        (br_if $done (i64.ge_u (local.get $i) (i64.const 60000)))
        (call $store_u64 (i64.add (local.get $block) (local.get $i)) (i64.const 0x9191919191919191))
        (local.set $i (i64.add (local.get $i) (i64.const 8)))
        (br $open)))
    (call $store_u8 (i64.add (local.get $block) (i64.const 60000)) (i32.const 0xc0))
    (call $output_set (local.get $block) (i64.const 60001))
    (i32.const 0))

  (export "session_start" (func $nest))
  (export "prompt_submit" (func $nest))
  (export "pre_tool" (func $nest))
  (export "post_tool" (func $nest))
  (export "turn_continuation" (func $nest))
)
