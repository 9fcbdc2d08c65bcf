;; var-flood — pre_tool stores 256 distinct vars ("flood-aa" … "flood-pp") of
;; 1 MiB each: 256 MiB of host memory if nothing stops it. Each var_set makes
;; the host copy the value out of the call's block into its Var map, and vars
;; outlive the call. With Extism's `memory.maxVarBytes` set, var_set fails
;; past the limit, the SDK records an error and the call rejects
;; ("Plugin-originated error: var memory limit exceeded: …"); the host must
;; apply the fault decision (`memory` or `plugin-error`) and drop the vars.
;; If every var_set is accepted, pre_tool returns {"action":"allow"}.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "var_set" (func $var_set (param i64 i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")
  ;; key stem "flood-" (6 bytes); two letters a-p follow
  (data (i32.const 32) "flood-")

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
    (local $value i64) (local $key i64) (local $n i32) (local $i i32)
    ;; one 1 MiB value block, stored under every key (the host copies it each time)
    (local.set $value (call $alloc (i64.const 1048576)))
    (block $flooded
      (loop $flood
        (br_if $flooded (i32.ge_u (local.get $n) (i32.const 256)))
        (local.set $key (call $alloc (i64.const 8)))
        (local.set $i (i32.const 0))
        (block $stem_done
          (loop $stem
            (br_if $stem_done (i32.ge_u (local.get $i) (i32.const 6)))
            (call $store_u8
              (i64.add (local.get $key) (i64.extend_i32_u (local.get $i)))
              (i32.load8_u (i32.add (i32.const 32) (local.get $i))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $stem)))
        (call $store_u8 (i64.add (local.get $key) (i64.const 6))
          (i32.add (i32.const 97) (i32.shr_u (local.get $n) (i32.const 4))))
        (call $store_u8 (i64.add (local.get $key) (i64.const 7))
          (i32.add (i32.const 97) (i32.and (local.get $n) (i32.const 15))))
        (call $var_set (local.get $key) (local.get $value))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $flood)))
    (call $emit (i32.const 0) (i32.const 14))
    (i32.const 0))
)
