;; unknown-action — every seam export returns {"action":"explode"}: well-formed
;; msgpack, a map with an action, but no seam has that action (and
;; session-start's decision is a strict object with no `action` key). Fault
;; `schema`.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"explode"} (16 bytes)
  (data (i32.const 0) "\81\a6action\a7explode")

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

  (func $explode (result i32)
    (call $emit (i32.const 0) (i32.const 16))
    (i32.const 0))

  (export "session_start" (func $explode))
  (export "prompt_submit" (func $explode))
  (export "pre_tool" (func $explode))
  (export "post_tool" (func $explode))
  (export "turn_continuation" (func $explode))
)
