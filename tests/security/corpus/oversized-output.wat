;; oversized-output — a well-formed decision that is 4 MiB + a few bytes long:
;; the free-text field is a str32 of 4,194,304 'x' characters. Only the size
;; is wrong, so the host's output cap must reject it (`output-too-large`)
;; before decoding or validating it; without a cap it would pass as a valid
;; decision and flood the model's context.
;;   pre_tool      -> {"action":"allow","reason":"xxxx…"}                (4,194,330 bytes)
;;   prompt_submit -> {"action":"allow","additionalContext":"xxxx…"}     (4,194,341 bytes)
;;   post_tool     -> {"action":"accept","additionalContext":"xxxx…"}    (4,194,342 bytes)
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; Map prefixes, each ending with the str32 marker 0xdb:
  ;; {"action":"allow","reason": <str32>} (22 bytes)
  (data (i32.const 0) "\82\a6action\a5allow\a6reason\db")
  ;; {"action":"allow","additionalContext": <str32>} (33 bytes)
  (data (i32.const 32) "\82\a6action\a5allow\b1additionalContext\db")
  ;; {"action":"accept","additionalContext": <str32>} (34 bytes)
  (data (i32.const 80) "\82\a6action\a6accept\b1additionalContext\db")
  ;; str32 length 4,194,304, big-endian (4 bytes)
  (data (i32.const 128) "\00\40\00\00")

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

  (func $flood (param $prefix i32) (param $prefix_len i32)
    (local $text i64) (local $total i64) (local $block i64) (local $at i64) (local $end i64)
    (local.set $text (i64.const 4194304))
    (local.set $total
      (i64.add (i64.extend_i32_u (local.get $prefix_len)) (i64.add (i64.const 4) (local.get $text))))
    (local.set $block (call $alloc (local.get $total)))
    (call $store_bytes (local.get $block) (local.get $prefix) (local.get $prefix_len))
    (local.set $at (i64.add (local.get $block) (i64.extend_i32_u (local.get $prefix_len))))
    (call $store_bytes (local.get $at) (i32.const 128) (i32.const 4))
    (local.set $at (i64.add (local.get $at) (i64.const 4)))
    (local.set $end (i64.add (local.get $at) (local.get $text)))
    ;; 'x' x 8 per store; the text length is a multiple of 8
    (block $done
      (loop $fill
        (br_if $done (i64.ge_u (local.get $at) (local.get $end)))
        (call $store_u64 (local.get $at) (i64.const 0x7878787878787878))
        (local.set $at (i64.add (local.get $at) (i64.const 8)))
        (br $fill)))
    (call $output_set (local.get $block) (local.get $total)))

  (func (export "pre_tool") (result i32)
    (call $flood (i32.const 0) (i32.const 22))
    (i32.const 0))
  (func (export "prompt_submit") (result i32)
    (call $flood (i32.const 32) (i32.const 33))
    (i32.const 0))
  (func (export "post_tool") (result i32)
    (call $flood (i32.const 80) (i32.const 34))
    (i32.const 0))
)
