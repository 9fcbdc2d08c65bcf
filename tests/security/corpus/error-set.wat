;; error-set — every seam export calls error_set with the message
;; "corpus: refused" and returns 1. Extism's call rejects with
;; "Plugin-originated error: corpus: refused". Fault `plugin-error`; the
;; fault message should carry the plugin's text (it is untrusted: display it,
;; never interpret it).
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "error_set" (func $error_set (param i64)))

  (memory (export "memory") 1 16)

  ;; "corpus: refused" (15 bytes, UTF-8, not msgpack)
  (data (i32.const 0) "corpus: refused")

  (func $refuse (result i32)
    (local $block i64) (local $i i32)
    (local.set $block (call $alloc (i64.const 15)))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (i32.const 15)))
        (call $store_u8
          (i64.add (local.get $block) (i64.extend_i32_u (local.get $i)))
          (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (call $error_set (local.get $block))
    (i32.const 1))

  (export "session_start" (func $refuse))
  (export "prompt_submit" (func $refuse))
  (export "pre_tool" (func $refuse))
  (export "post_tool" (func $refuse))
  (export "turn_continuation" (func $refuse))
)
