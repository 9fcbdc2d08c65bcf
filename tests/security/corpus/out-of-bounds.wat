;; out-of-bounds — every seam export loads from an address far past the end of
;; its 64 KiB memory (RuntimeError: memory access out of bounds). This is an
;; ordinary `trap`; a host matching error text must not file it as `memory`
;; just because the message says "memory".
(module
  (memory (export "memory") 1 16)

  (func $oob (result i32)
    (i32.load (i32.const 0xfffffff0)))

  (export "session_start" (func $oob))
  (export "prompt_submit" (func $oob))
  (export "pre_tool" (func $oob))
  (export "post_tool" (func $oob))
  (export "turn_continuation" (func $oob))
)
