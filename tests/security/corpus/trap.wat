;; trap — every seam export executes `unreachable` (RuntimeError: unreachable).
;; Fault `trap`; the instance stays usable.
(module
  (memory (export "memory") 1 16)

  (func $trap (result i32)
    unreachable)

  (export "session_start" (func $trap))
  (export "prompt_submit" (func $trap))
  (export "pre_tool" (func $trap))
  (export "post_tool" (func $trap))
  (export "turn_continuation" (func $trap))
)
