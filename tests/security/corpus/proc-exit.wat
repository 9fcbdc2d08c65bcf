;; proc-exit — pre_tool calls WASI proc_exit(0) in the middle of a hook call:
;; a plugin asking to end the host process with "success". The host process
;; (and its worker) must survive and the seam must still get a decision.
;; Node's WASI turns proc_exit outside start() into a thrown value, so with
;; WASI the call fails (`trap`/`plugin-error`: the gate denies); a host
;; without WASI refuses to load it (`load`). If proc_exit ever returns (a stub
;; that ignores it), pre_tool says so:
;; {"action":"deny","reason":"proc_exit returned"} — never an allow.
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"deny","reason":"proc_exit returned"} (39 bytes)
  (data (i32.const 0) "\82\a6action\a4deny\a6reason\b2proc_exit returned")

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
    (call $proc_exit (i32.const 0))
    (call $emit (i32.const 0) (i32.const 39))
    (i32.const 0))
)
