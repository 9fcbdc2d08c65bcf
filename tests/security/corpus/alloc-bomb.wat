;; alloc-bomb — exhausts *host* memory through the kernel instead of linear
;; memory: pre_tool asks Extism's `alloc` for 16 blocks of 64 MiB (1 GiB) and
;; writes one u64 into every 4 KiB of each so the pages are really committed.
;; The guest's declared memory maximum does not bound this; Extism's
;; `memory.maxPages` does not either (the SDK keeps the block it refuses, so
;; the memory stays held until the call ends). If `alloc` returns 0 (refused)
;; it traps, as a C program does when malloc fails. The host must bound it
;; (a budget on alloc, or the worker's limits) and report `memory`; a host
;; that lets it through holds 1 GiB until the call ends and gets
;; {"action":"allow"}.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
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
    (local $n i32) (local $block i64) (local $at i64)
    (block $exhausted
      (loop $more
        (br_if $exhausted (i32.ge_u (local.get $n) (i32.const 16)))
        (local.set $block (call $alloc (i64.const 67108864)))
        (if (i64.eqz (local.get $block))
          (then unreachable))
        (local.set $at (i64.const 0))
        (block $touched
          (loop $touch
            (br_if $touched (i64.ge_u (local.get $at) (i64.const 67108864)))
            (call $store_u64 (i64.add (local.get $block) (local.get $at)) (local.get $at))
            (local.set $at (i64.add (local.get $at) (i64.const 4096)))
            (br $touch)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $more)))
    (call $emit (i32.const 0) (i32.const 14))
    (i32.const 0))
)
