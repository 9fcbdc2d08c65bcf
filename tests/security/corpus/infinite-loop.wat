;; infinite-loop — every seam export spins forever in a tight loop that never
;; calls the host, so nothing but the host's wall timeout (and terminating the
;; thread that runs it) can stop it.
(module
  (memory (export "memory") 1 16)

  (func $spin (result i32)
    (loop $forever
      (br $forever))
    (i32.const 0))

  (export "session_start" (func $spin))
  (export "prompt_submit" (func $spin))
  (export "pre_tool" (func $spin))
  (export "post_tool" (func $spin))
  (export "turn_continuation" (func $spin))
)
