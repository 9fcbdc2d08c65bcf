;; memory-bomb — declares the largest maximum wasm32 allows (65536 pages =
;; 4 GiB), then every seam export grows linear memory one page at a time,
;; filling each new page so the host really commits it. When memory.grow
;; fails (returns -1: the cap was reached) it keeps asking 1000 more times,
;; as a careless allocator would, then traps (`unreachable`), as a C program
;; does when malloc fails.
;; The host must either refuse to load it (maximum above its cap: a `load`
;; fault) or rewrite the maximum down to its cap so the bomb stops there.
;; The memory is exported so the host can see it sits at the cap after the trap.
(module
  (memory (export "memory") 1 65536)

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
