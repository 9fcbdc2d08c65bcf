;; wasi-attempts — pre_tool tries every ambient capability WASI preview 1
;; offers and reports what worked. A call counts as granted when it returns
;; errno 0 (success), and for env only when there is at least one variable:
;;   env     environ_sizes_get reports >= 1 variable (environ_get is then
;;           called too, into a bounded buffer)
;;   fs      path_open(".", O_DIRECTORY) succeeds on any fd 3..15 (a preopen)
;;   stdout  fd_write(1, "HOOKBOX-CORPUS-WASI-LEAK\n") succeeds
;;   stderr  fd_write(2, the same marker) succeeds
;;   clock   clock_time_get(realtime) or clock_time_get(monotonic) succeeds
;;   random  random_get(16 bytes) succeeds
;; Nothing granted -> {"action":"allow"}.
;; Anything granted -> {"action":"deny","reason":"wasi leaked: <tokens>"},
;; tokens comma-separated in the order above, e.g. "wasi leaked: clock,random".
;; A host with no WASI at all refuses to load it (`load`); a host whose WASI
;; stubs trap makes it a `trap`. Note that a stdout write "succeeds" even when
;; the host points fd 1 at /dev/null (Extism's default): look for the marker
;; on the real stdout/stderr to tell.
(module
  (import "wasi_snapshot_preview1" "environ_sizes_get"
    (func $environ_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_get"
    (func $environ_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get"
    (func $clock_time_get (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get"
    (func $random_get (param i32 i32) (result i32)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  ;; 4 pages: 0-1023 data, 1024-… scratch, 8192-16383 environ pointers,
  ;; 65536-262143 environ strings.
  (memory (export "memory") 4 16)

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")
  ;; {"action":"deny","reason": str8 "wasi leaked: " + tokens}: the 20-byte
  ;; map prefix, 0xd9, a length byte (patched at 53) and the reason, whose
  ;; tokens are appended from 67 on.
  (data (i32.const 32) "\82\a6action\a4deny\a6reason\d9\00wasi leaked: ")
  ;; path "." (1 byte)
  (data (i32.const 160) ".")
  ;; stdout/stderr marker (25 bytes)
  (data (i32.const 176) "HOOKBOX-CORPUS-WASI-LEAK\n")
  ;; one iovec {buf = 176, len = 25}, little-endian
  (data (i32.const 224) "\b0\00\00\00\19\00\00\00")
  ;; tokens
  (data (i32.const 256) "env")
  (data (i32.const 264) "fs")
  (data (i32.const 272) "stdout")
  (data (i32.const 280) "stderr")
  (data (i32.const 288) "clock")
  (data (i32.const 296) "random")

  ;; where the next token goes
  (global $cursor (mut i32) (i32.const 67))

  (func $leaked (param $token i32) (param $len i32)
    (local $i i32)
    (if (i32.ne (global.get $cursor) (i32.const 67))
      (then
        (i32.store8 (global.get $cursor) (i32.const 44))
        (global.set $cursor (i32.add (global.get $cursor) (i32.const 1)))))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (i32.store8
          (i32.add (global.get $cursor) (local.get $i))
          (i32.load8_u (i32.add (local.get $token) (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (global.set $cursor (i32.add (global.get $cursor) (local.get $len))))

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
    (local $fd i32) (local $env i32)
    (global.set $cursor (i32.const 67))
    (i64.store (i32.const 1024) (i64.const 0))

    ;; env: count at 1024, string bytes at 1028
    (if (i32.eqz (call $environ_sizes_get (i32.const 1024) (i32.const 1028)))
      (then
        (local.set $env (i32.ne (i32.load (i32.const 1024)) (i32.const 0)))
        (if (i32.and
              (i32.le_u (i32.load (i32.const 1024)) (i32.const 2048))
              (i32.le_u (i32.load (i32.const 1028)) (i32.const 196608)))
          (then
            (if (i32.and
                  (i32.eqz (call $environ_get (i32.const 8192) (i32.const 65536)))
                  (i32.ne (i32.load (i32.const 1024)) (i32.const 0)))
              (then (local.set $env (i32.const 1))))))))
    (if (local.get $env)
      (then (call $leaked (i32.const 256) (i32.const 3))))

    ;; fs: any preopened directory
    (local.set $fd (i32.const 3))
    (block $fs_done
      (loop $probe
        (br_if $fs_done (i32.gt_u (local.get $fd) (i32.const 15)))
        (if (i32.eqz
              (call $path_open
                (local.get $fd)
                (i32.const 1)        ;; lookupflags: symlink_follow
                (i32.const 160) (i32.const 1)
                (i32.const 2)        ;; oflags: directory
                (i64.const 0) (i64.const 0)
                (i32.const 0)
                (i32.const 1036)))
          (then
            (call $leaked (i32.const 264) (i32.const 2))
            (br $fs_done)))
        (local.set $fd (i32.add (local.get $fd) (i32.const 1)))
        (br $probe)))

    ;; stdout, stderr
    (if (i32.eqz (call $fd_write (i32.const 1) (i32.const 224) (i32.const 1) (i32.const 1032)))
      (then (call $leaked (i32.const 272) (i32.const 6))))
    (if (i32.eqz (call $fd_write (i32.const 2) (i32.const 224) (i32.const 1) (i32.const 1032)))
      (then (call $leaked (i32.const 280) (i32.const 6))))

    ;; clock: realtime (0) or monotonic (1)
    (if (i32.or
          (i32.eqz (call $clock_time_get (i32.const 0) (i64.const 1) (i32.const 1040)))
          (i32.eqz (call $clock_time_get (i32.const 1) (i64.const 1) (i32.const 1040))))
      (then (call $leaked (i32.const 288) (i32.const 5))))

    ;; random
    (if (i32.eqz (call $random_get (i32.const 1056) (i32.const 16)))
      (then (call $leaked (i32.const 296) (i32.const 6))))

    (if (i32.eq (global.get $cursor) (i32.const 67))
      (then (call $emit (i32.const 0) (i32.const 14)))
      (else
        ;; str8 length: "wasi leaked: " starts at 54
        (i32.store8 (i32.const 53) (i32.sub (global.get $cursor) (i32.const 54)))
        (call $emit (i32.const 32) (i32.sub (global.get $cursor) (i32.const 32)))))
    (i32.const 0))
)
