;; memory-bomb-capped — the same bomb as memory-bomb, but the module declares a
;; modest maximum (256 pages = 16 MiB), below any sane host cap, so a host
;; that refuses large maxima still loads it and the runtime path is exercised:
;; grow page by page (filling each), keep asking 1000 times at the cap, then
;; trap (`unreachable`). The host must report a `memory` fault (the memory is
;; exported and sits at its maximum after the trap), not a plain `trap`.
(module
  (memory (export "memory") 1 256)

  (func $bomb (result i32)
    (local $page i32) (local $retries i32)
    (loop $grow
      (local.set $page (memory.grow (i32.const 1)))
      (if (i32.ne (local.get $page) (i32.const -1))
        (then
          (memory.fill
            (i32.shl (local.get $page) (i32.const 16))
            (i32.const 0xa5)
            (i32.const 65536))
          (br $grow)))
      (local.set $retries (i32.add (local.get $retries) (i32.const 1)))
      (br_if $grow (i32.lt_u (local.get $retries) (i32.const 1000))))
    unreachable)

  (export "session_start" (func $bomb))
  (export "prompt_submit" (func $bomb))
  (export "pre_tool" (func $bomb))
  (export "post_tool" (func $bomb))
  (export "turn_continuation" (func $bomb))
)
