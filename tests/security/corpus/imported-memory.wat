;; imported-memory — healthy code (pre_tool -> {"action":"allow"}), but the
;; module has no memory section: it imports its memory ("env" "memory",
;; 1..16 pages) and re-exports it. A host that looks for the declared maximum
;; only in the memory section must not conclude "no memory, nothing to cap".
;; Extism does not provide memory imports, so loading it is a `load` fault.
(module
  (import "env" "memory" (memory $mem 1 16))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (export "memory" (memory $mem))

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")

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
    (call $emit (i32.const 0) (i32.const 14))
    (i32.const 0))
)
