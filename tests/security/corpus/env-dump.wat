;; env-dump — pre_tool reads the whole WASI environment (environ_sizes_get,
;; environ_get) and hands it back, so a test sees exactly which variables the
;; guest can read, whatever the host's WASI layer looks like inside:
;;   no variable (or a refused call) -> {"action":"allow"}
;;   variables -> {"action":"deny","reason": "<NAME=value>\n<NAME=value>…"}
;;     (environ_get's NUL-terminated strings, each NUL but the last turned
;;     into "\n"; str16, so at most 65,535 bytes)
;;   more than 65,535 bytes or 2,048 variables -> {"action":"deny","reason":"environment too large"}
(module
  (import "wasi_snapshot_preview1" "environ_sizes_get"
    (func $environ_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_get"
    (func $environ_get (param i32 i32) (result i32)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  ;; 0-1023 constants, 1024 counts, 4096-… the reply (prefix, then the
  ;; strings environ_get writes in place), 131072-139263 environ pointers.
  (memory (export "memory") 4 16)

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")
  ;; {"action":"deny","reason":"environment too large"} (41 bytes)
  (data (i32.const 32) "\82\a6action\a4deny\a6reason\b5environment too large")
  ;; {"action":"deny","reason": str16 …}: 20-byte map prefix, 0xda, then the
  ;; big-endian length at 4117-4118 and the strings from 4119.
  (data (i32.const 4096) "\82\a6action\a4deny\a6reason\da")

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
    (local $size i32) (local $i i32)
    (i64.store (i32.const 1024) (i64.const 0))
    (if (i32.ne (call $environ_sizes_get (i32.const 1024) (i32.const 1028)) (i32.const 0))
      (then (call $emit (i32.const 0) (i32.const 14)) (return (i32.const 0))))
    (local.set $size (i32.load (i32.const 1028)))
    (if (i32.or (i32.eqz (i32.load (i32.const 1024))) (i32.eqz (local.get $size)))
      (then (call $emit (i32.const 0) (i32.const 14)) (return (i32.const 0))))
    (if (i32.or (i32.gt_u (local.get $size) (i32.const 65535))
                (i32.gt_u (i32.load (i32.const 1024)) (i32.const 2048)))
      (then (call $emit (i32.const 32) (i32.const 41)) (return (i32.const 0))))
    (if (i32.ne (call $environ_get (i32.const 131072) (i32.const 4119)) (i32.const 0))
      (then (call $emit (i32.const 0) (i32.const 14)) (return (i32.const 0))))
    ;; NUL separators -> "\n"; the final NUL is dropped (length - 1).
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $i) (local.get $size)))
        (if (i32.eqz (i32.load8_u (i32.add (i32.const 4119) (local.get $i))))
          (then (i32.store8 (i32.add (i32.const 4119) (local.get $i)) (i32.const 10))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (local.set $size (i32.sub (local.get $size) (i32.const 1)))
    (i32.store8 (i32.const 4117) (i32.shr_u (local.get $size) (i32.const 8)))
    (i32.store8 (i32.const 4118) (i32.and (local.get $size) (i32.const 255)))
    (call $emit (i32.const 4096) (i32.add (local.get $size) (i32.const 23)))
    (i32.const 0))
)
