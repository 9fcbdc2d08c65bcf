;; echo-next — healthy; lets a test see the exact envelope the host sent.
;; Every seam export answers with a valid decision whose one free-text field
;; holds the lowercase hex of the input bytes it received (the msgpack
;; envelope {v, seam, session, payload, next}); hex-decode it, then unpack it:
;;   session_start     -> {"additionalContext": HEX}
;;   prompt_submit     -> {"action":"allow",  "additionalContext": HEX}
;;   pre_tool          -> {"action":"allow",  "reason": HEX}
;;   post_tool         -> {"action":"accept", "additionalContext": HEX}
;;   turn_continuation -> {"action":"continue", "reason": HEX}
;; The string is always a str32 (0xdb + big-endian u32 length), valid msgpack.
;; The output is 2 x input + ~40 bytes, so a large envelope can trip the
;; host's output cap: that is an output-too-large fault, not a bug here.
(module
  (import "extism:host/env" "input_length" (func $input_length (result i64)))
  (import "extism:host/env" "input_load_u8" (func $input_load_u8 (param i64) (result i32)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  (data (i32.const 0) "0123456789abcdef")
  ;; Map prefixes, each ending with the str32 marker 0xdb:
  ;; {"action":"allow","reason": <str32>} (22 bytes)
  (data (i32.const 32) "\82\a6action\a5allow\a6reason\db")
  ;; {"action":"allow","additionalContext": <str32>} (33 bytes)
  (data (i32.const 64) "\82\a6action\a5allow\b1additionalContext\db")
  ;; {"action":"accept","additionalContext": <str32>} (34 bytes)
  (data (i32.const 112) "\82\a6action\a6accept\b1additionalContext\db")
  ;; {"action":"continue","reason": <str32>} (25 bytes)
  (data (i32.const 160) "\82\a6action\a8continue\a6reason\db")
  ;; {"additionalContext": <str32>} (20 bytes)
  (data (i32.const 192) "\81\b1additionalContext\db")

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

  (func $echo (param $prefix i32) (param $prefix_len i32)
    (local $n i64) (local $hex_len i64) (local $total i64) (local $block i64)
    (local $pos i64) (local $i i64) (local $byte i32)
    (local.set $n (call $input_length))
    (local.set $hex_len (i64.shl (local.get $n) (i64.const 1)))
    (local.set $total
      (i64.add (i64.extend_i32_u (local.get $prefix_len)) (i64.add (i64.const 4) (local.get $hex_len))))
    (local.set $block (call $alloc (local.get $total)))
    (call $store_bytes (local.get $block) (local.get $prefix) (local.get $prefix_len))
    (local.set $pos (i64.add (local.get $block) (i64.extend_i32_u (local.get $prefix_len))))
    ;; str32 length, big-endian
    (call $store_u8 (local.get $pos)
      (i32.wrap_i64 (i64.and (i64.shr_u (local.get $hex_len) (i64.const 24)) (i64.const 255))))
    (call $store_u8 (i64.add (local.get $pos) (i64.const 1))
      (i32.wrap_i64 (i64.and (i64.shr_u (local.get $hex_len) (i64.const 16)) (i64.const 255))))
    (call $store_u8 (i64.add (local.get $pos) (i64.const 2))
      (i32.wrap_i64 (i64.and (i64.shr_u (local.get $hex_len) (i64.const 8)) (i64.const 255))))
    (call $store_u8 (i64.add (local.get $pos) (i64.const 3))
      (i32.wrap_i64 (i64.and (local.get $hex_len) (i64.const 255))))
    (local.set $pos (i64.add (local.get $pos) (i64.const 4)))
    (block $done
      (loop $hex
        (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
        (local.set $byte (call $input_load_u8 (local.get $i)))
        (call $store_u8 (local.get $pos)
          (i32.load8_u (i32.shr_u (local.get $byte) (i32.const 4))))
        (call $store_u8 (i64.add (local.get $pos) (i64.const 1))
          (i32.load8_u (i32.and (local.get $byte) (i32.const 15))))
        (local.set $pos (i64.add (local.get $pos) (i64.const 2)))
        (local.set $i (i64.add (local.get $i) (i64.const 1)))
        (br $hex)))
    (call $output_set (local.get $block) (local.get $total)))

  (func (export "pre_tool") (result i32)
    (call $echo (i32.const 32) (i32.const 22))
    (i32.const 0))
  (func (export "prompt_submit") (result i32)
    (call $echo (i32.const 64) (i32.const 33))
    (i32.const 0))
  (func (export "post_tool") (result i32)
    (call $echo (i32.const 112) (i32.const 34))
    (i32.const 0))
  (func (export "turn_continuation") (result i32)
    (call $echo (i32.const 160) (i32.const 25))
    (i32.const 0))
  (func (export "session_start") (result i32)
    (call $echo (i32.const 192) (i32.const 20))
    (i32.const 0))
)
