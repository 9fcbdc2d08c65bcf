;; missing-reason — a restrictive decision without its required reason. Fault
;; `schema` (the seam's fault decision applies; the hook's own deny/block is
;; not taken at face value):
;;   pre_tool                 -> {"action":"deny"}
;;   prompt_submit, post_tool -> {"action":"block"}
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"deny"} (13 bytes)
  (data (i32.const 0) "\81\a6action\a4deny")
  ;; {"action":"block"} (14 bytes)
  (data (i32.const 32) "\81\a6action\a5block")

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

  (func (export "pre_tool") (result i32)
    (call $emit (i32.const 0) (i32.const 13))
    (i32.const 0))

  (func $block_without_reason (result i32)
    (call $emit (i32.const 32) (i32.const 14))
    (i32.const 0))
  (export "prompt_submit" (func $block_without_reason))
  (export "post_tool" (func $block_without_reason))
)
