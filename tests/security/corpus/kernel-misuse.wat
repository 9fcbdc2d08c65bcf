;; kernel-misuse — each seam export abuses an Extism kernel function so that
;; the *host* side throws inside the guest's call (a host Error or RangeError
;; coming out of wasm, not a trap and not a plugin-originated error). The
;; host must map every one to a fault and keep running; an instance that saw
;; a host RangeError should be discarded. If a host tolerates the misuse and
;; the call goes on, the export traps (`unreachable`) right after, so it never
;; yields a decision.
;;   pre_tool          output_set on a block that was never allocated
;;                     (Error: cannot assign to this block …)
;;   prompt_submit     alloc(2^46 bytes) (RangeError: Array buffer allocation failed)
;;   post_tool         load_u64 past the end of a 1-byte block
;;                     (RangeError: Offset is outside the bounds of the DataView)
;;   turn_continuation output_set with a length longer than the block
;;                     (Error: length longer than target block)
;;   session_start     error_set on a block that was never allocated
;;                     (Error: cannot assign error to this block)
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "load_u64" (func $load_u64 (param i64) (result i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
  (import "extism:host/env" "error_set" (func $error_set (param i64)))

  (memory (export "memory") 1 16)

  ;; Block index 0x7fff (bits 48..63 of the address): never allocated.
  (func (export "pre_tool") (result i32)
    (call $output_set (i64.const 0x7fff000000000000) (i64.const 1))
    unreachable)

  (func (export "prompt_submit") (result i32)
    (drop (call $alloc (i64.const 0x400000000000)))
    unreachable)

  (func (export "post_tool") (result i32)
    (drop (call $load_u64 (i64.add (call $alloc (i64.const 1)) (i64.const 64))))
    unreachable)

  (func (export "turn_continuation") (result i32)
    (call $output_set (call $alloc (i64.const 1)) (i64.const 1024))
    unreachable)

  (func (export "session_start") (result i32)
    (call $error_set (i64.const 0x7fff000000000000))
    unreachable)
)
