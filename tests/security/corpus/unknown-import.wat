;; unknown-import — imports a host function the Extism kernel does not have
;; (extism:host/env "does_not_exist") and calls it from pre_tool. It cannot be
;; instantiated: a `load` fault (or HookLoadError when loaded up front) that
;; names the missing import.
(module
  (import "extism:host/env" "does_not_exist" (func $does_not_exist (param i64) (result i64)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

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
    (drop (call $does_not_exist (i64.const 0)))
    (call $emit (i32.const 0) (i32.const 14))
    (i32.const 0))
)
