;; garbage-output — every seam export returns 0 with output bytes c1 ff 00,
;; which are not MessagePack (0xc1 is the one byte msgpack never uses, and a
;; decoder that reads a value must not ignore the trailing bytes). Fault
;; `decode`. Note: msgpackr's unpack() of a lone 0xc1 returns a C1Type
;; object instead of throwing; with the trailing bytes it throws.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; not msgpack (3 bytes)
  (data (i32.const 0) "\c1\ff\00")

  ;; Copies linear memory [ptr, ptr+len) into a fresh Extism block and makes it the output.
  (func $emit (param $ptr i32) (param $len i32)
    (local $block i64) (local $i i32)
    (local.set $block (call $alloc (i64.extend_i32_u (local.get $len))))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (call $store_u8
          (i64.add (local.get $block) (i64.extend_i32_u (local.get $i)))
          (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (call $output_set (local.get $block) (i64.extend_i32_u (local.get $len))))

  (func $garbage (result i32)
    (call $emit (i32.const 0) (i32.const 3))
    (i32.const 0))

  (export "session_start" (func $garbage))
  (export "prompt_submit" (func $garbage))
  (export "pre_tool" (func $garbage))
  (export "post_tool" (func $garbage))
  (export "turn_continuation" (func $garbage))
)
