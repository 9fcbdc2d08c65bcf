;; no-opinion — healthy, says nothing. Every seam export returns 0 without
;; calling output_set, so the output is empty: "no opinion", the seam keeps
;; `next`. Must not be read as a decode fault nor as an allow of its own.
(module
  (memory (export "memory") 1 16)

  (func $silent (result i32)
    (i32.const 0))

  (export "session_start" (func $silent))
  (export "prompt_submit" (func $silent))
  (export "pre_tool" (func $silent))
  (export "post_tool" (func $silent))
  (export "turn_continuation" (func $silent))
)
