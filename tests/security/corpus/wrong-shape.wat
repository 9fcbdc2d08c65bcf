;; wrong-shape — valid MessagePack that is not a decision object. Fault
;; `schema` on every seam:
;;   pre_tool          -> ["allow"]   (an array)
;;   prompt_submit     -> "allow"     (a string)
;;   post_tool         -> 42          (a number)
;;   turn_continuation -> nil         (must not be read as "no opinion":
;;                                     only empty output means that)
;;   session_start     -> []          (an empty array)
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; ["allow"] (7 bytes)
  (data (i32.const 0) "\91\a5allow")
  ;; "allow" (6 bytes)
  (data (i32.const 16) "\a5allow")
  ;; 42 (1 byte)
  (data (i32.const 32) "\2a")
  ;; nil (1 byte)
  (data (i32.const 48) "\c0")
  ;; [] (1 byte)
  (data (i32.const 64) "\90")

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
    (call $emit (i32.const 0) (i32.const 7))
    (i32.const 0))
  (func (export "prompt_submit") (result i32)
    (call $emit (i32.const 16) (i32.const 6))
    (i32.const 0))
  (func (export "post_tool") (result i32)
    (call $emit (i32.const 32) (i32.const 1))
    (i32.const 0))
  (func (export "turn_continuation") (result i32)
    (call $emit (i32.const 48) (i32.const 1))
    (i32.const 0))
  (func (export "session_start") (result i32)
    (call $emit (i32.const 64) (i32.const 1))
    (i32.const 0))
)
