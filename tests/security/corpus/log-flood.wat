;; log-flood — floods the host's log through log_info, with a 16-byte message
;; "corpus log flood" (each log frees its block, so each gets a fresh one):
;;   pre_tool   30,000 log_info calls, then {"action":"allow"}. The call is
;;              healthy and its decision stands; the host must not let the
;;              plugin flood its logs or terminal (drop below the log level,
;;              rate-limit or cap). A host that caps the time may make it a
;;              `timeout` instead.
;;   post_tool  100,000 log_info calls, then {"action":"accept"}. Extism JS
;;              addresses a call's blocks as index << 48 in an i64: from
;;              block 32,768 on the addresses are negative ("bad block
;;              reference", reported through the SDK logger's error() whatever
;;              the log level: give Extism a logger of your own, never
;;              `console`), and block 65,536 wraps to address 0, the 1-byte
;;              reserved block, so the next store throws a host RangeError
;;              ("Offset is outside the bounds of the DataView"). Expect a
;;              fault (and no terminal flood), not a decision.
;; The output block is allocated before the flood so that, where the flood
;; is survivable, the decision still gets through.
(module
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
  (import "extism:host/env" "log_info" (func $log_info (param i64)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")
  ;; {"action":"accept"} (15 bytes)
  (data (i32.const 16) "\81\a6action\a6accept")
  ;; "corpus log flood" (16 bytes: two u64 stores)
  (data (i32.const 32) "corpus log flood")

  ;; Copies linear memory [ptr, ptr+len) into an Extism block and makes it the output.
  (func $emit_into (param $block i64) (param $ptr i32) (param $len i32)
    (local $i i32)
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (call $store_u8
          (i64.add (local.get $block) (i64.extend_i32_u (local.get $i)))
          (i32.load8_u (i32.add (local.get $ptr) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (call $output_set (local.get $block) (i64.extend_i32_u (local.get $len))))

  (func $flood (param $times i32)
    (local $n i32) (local $message i64)
    (block $flooded
      (loop $more
        (br_if $flooded (i32.ge_u (local.get $n) (local.get $times)))
        (local.set $message (call $alloc (i64.const 16)))
        (call $store_u64 (local.get $message) (i64.load (i32.const 32)))
        (call $store_u64 (i64.add (local.get $message) (i64.const 8)) (i64.load (i32.const 40)))
        (call $log_info (local.get $message))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $more))))

  (func (export "pre_tool") (result i32)
    (local $output i64)
    (local.set $output (call $alloc (i64.const 14)))
    (call $flood (i32.const 30000))
    (call $emit_into (local.get $output) (i32.const 0) (i32.const 14))
    (i32.const 0))

  (func (export "post_tool") (result i32)
    (local $output i64)
    (local.set $output (call $alloc (i64.const 15)))
    (call $flood (i32.const 100000))
    (call $emit_into (local.get $output) (i32.const 16) (i32.const 15))
    (i32.const 0))
)
