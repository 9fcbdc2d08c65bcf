;; recursion — every seam export recurses without bound (not a tail call, with
;; fat frames) until V8's stack overflows. V8 reports that as a host
;; `RangeError: Maximum call stack size exceeded`, not a wasm trap: the host
;; must turn it into a fault (`trap`) and discard the instance, which may be
;; left degraded.
(module
  (memory (export "memory") 1 16)

  (func $dive (param $depth i64) (result i64)
    (local $a i64) (local $b i64) (local $c i64) (local $d i64)
    (local.set $a (i64.add (local.get $depth) (i64.const 1)))
    (local.set $b (i64.mul (local.get $a) (i64.const 3)))
    (local.set $c (i64.xor (local.get $b) (local.get $depth)))
    (local.set $d (i64.add (local.get $c) (call $dive (local.get $a))))
    (i64.add (local.get $d) (local.get $b)))

  (func $recurse (result i32)
    (drop (call $dive (i64.const 0)))
    (i32.const 0))

  (export "session_start" (func $recurse))
  (export "prompt_submit" (func $recurse))
  (export "pre_tool" (func $recurse))
  (export "post_tool" (func $recurse))
  (export "turn_continuation" (func $recurse))
)
