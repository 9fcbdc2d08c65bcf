;; var-counter — healthy; makes Extism Var state visible. pre_tool reads the
;; var "count" (a u64, little-endian; absent = 0), adds 1, stores it back and
;; denies with reason "count=N":
;;   1st call -> {"action":"deny","reason":"count=1"}, 2nd -> "count=2", …
;; Two sessions sharing this hook must each start at count=1: Var state must
;; not leak from one session to another.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
  (import "extism:host/env" "load_u64" (func $load_u64 (param i64) (result i64)))
  (import "extism:host/env" "var_get" (func $var_get (param i64) (result i64)))
  (import "extism:host/env" "var_set" (func $var_set (param i64 i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; var key "count" (5 bytes)
  (data (i32.const 0) "count")
  ;; {"action":"deny","reason": fixstr "count=" + digits}: the 20-byte map
  ;; prefix, a fixstr header (0xa0 | length, patched per call) and "count=";
  ;; the decimal digits are written right after, at 91.
  (data (i32.const 64) "\82\a6action\a4deny\a6reason\a0count=")

  ;; Writes linear memory [ptr, ptr+len) into Extism memory at dst.
  (func $store_bytes (param $dst i64) (param $ptr i32) (param $len i32)
    (local $i i32)
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (call $store_u8
          (i64.add (local.get $dst) (i64.extend_i32_u (local.get $i)))
          (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy))))

  ;; A fresh block holding the key: var_get frees the key block it is given.
  (func $key (result i64)
    (local $block i64)
    (local.set $block (call $alloc (i64.const 5)))
    (call $store_bytes (local.get $block) (i32.const 0) (i32.const 5))
    (local.get $block))

  ;; Writes the decimal digits of n at 91 and returns how many there are.
  (func $digits (param $n i64) (result i32)
    (local $count i32) (local $m i64) (local $i i32)
    ;; count the digits
    (local.set $m (local.get $n))
    (loop $measure
      (local.set $count (i32.add (local.get $count) (i32.const 1)))
      (local.set $m (i64.div_u (local.get $m) (i64.const 10)))
      (br_if $measure (i64.ne (local.get $m) (i64.const 0))))
    ;; write them right to left
    (local.set $m (local.get $n))
    (local.set $i (local.get $count))
    (loop $write
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (i32.store8
        (i32.add (i32.const 91) (local.get $i))
        (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $m) (i64.const 10)))))
      (local.set $m (i64.div_u (local.get $m) (i64.const 10)))
      (br_if $write (i32.ne (local.get $i) (i32.const 0))))
    (local.get $count))

  (func (export "pre_tool") (result i32)
    (local $stored i64) (local $count i64) (local $value i64) (local $ndigits i32)
    (local $len i32) (local $block i64)
    (local.set $stored (call $var_get (call $key)))
    (if (i64.ne (local.get $stored) (i64.const 0))
      (then (local.set $count (call $load_u64 (local.get $stored)))))
    (local.set $count (i64.add (local.get $count) (i64.const 1)))
    (local.set $value (call $alloc (i64.const 8)))
    (call $store_u64 (local.get $value) (local.get $count))
    (call $var_set (call $key) (local.get $value))
    (local.set $ndigits (call $digits (local.get $count)))
    ;; fixstr header: "count=" (6) + digits
    (i32.store8 (i32.const 84) (i32.or (i32.const 0xa0) (i32.add (i32.const 6) (local.get $ndigits))))
    ;; 20-byte prefix + header + "count=" + digits
    (local.set $len (i32.add (i32.const 27) (local.get $ndigits)))
    (local.set $block (call $alloc (i64.extend_i32_u (local.get $len))))
    (call $store_bytes (local.get $block) (i32.const 64) (local.get $len))
    (call $output_set (local.get $block) (i64.extend_i32_u (local.get $len)))
    (i32.const 0))
)
