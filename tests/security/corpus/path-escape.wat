;; path-escape — pre_tool tries to leave its path grant (issue #11, finding 2).
;; The test maps a directory as the first preopen (fd 3) holding `inside.txt`,
;; `up -> ..` (whose parent holds `secret.txt`) and `root -> /`. Probes, each
;; counted when it succeeds:
;;   read-up        open "up/secret.txt" read-only and read >= 1 byte
;;   read-root      the same through "root/etc/passwd"
;;   read-etc       the same through "etc/passwd" (fd 3 *is* `/` when a
;;                  manifest's symlinked subpath got mounted)
;;   create-up      path_open(O_CREAT) "up/created-by-hook"
;;   create-inside  path_open(O_CREAT) "inside-created" (a write inside the grant)
;;   unlink-inside  path_unlink_file "inside.txt"
;; Nothing succeeded -> {"action":"allow"}; else
;; {"action":"deny","reason":"wasi leaked: <tokens>"}, tokens comma-separated
;; in the order above. A read-only grant must give "allow"; a grant with
;; "write": true exactly "wasi leaked: create-inside,unlink-inside".
(module
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file"
    (func $path_unlink_file (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read"
    (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
  (import "extism:host/env" "store_u8" (func $store_u8 (param i64 i32)))
  (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))

  (memory (export "memory") 1 16)

  ;; {"action":"allow"} (14 bytes)
  (data (i32.const 0) "\81\a6action\a5allow")
  ;; {"action":"deny","reason": str8 "wasi leaked: " + tokens}: length byte at
  ;; 53, the reason from 54, tokens appended from 67 on.
  (data (i32.const 32) "\82\a6action\a4deny\a6reason\d9\00wasi leaked: ")
  ;; paths
  (data (i32.const 512) "up/secret.txt")
  (data (i32.const 544) "root/etc/passwd")
  (data (i32.const 576) "etc/passwd")
  (data (i32.const 608) "up/created-by-hook")
  (data (i32.const 640) "inside-created")
  (data (i32.const 672) "inside.txt")
  ;; tokens
  (data (i32.const 768) "read-up")
  (data (i32.const 784) "read-root")
  (data (i32.const 800) "read-etc")
  (data (i32.const 816) "create-up")
  (data (i32.const 832) "create-inside")
  (data (i32.const 848) "unlink-inside")
  ;; one iovec {buf = 2048, len = 64}
  (data (i32.const 1024) "\00\08\00\00\40\00\00\00")

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

  ;; 1 when the path opens read-only under fd 3 and reading it yields >= 1 byte.
  (func $readable (param $path i32) (param $len i32) (result i32)
    (local $ok i32)
    (if (i32.eqz
          (call $path_open (i32.const 3) (i32.const 1) (local.get $path) (local.get $len)
            (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 1040)))
      (then
        (i32.store (i32.const 1044) (i32.const 0))
        (local.set $ok
          (i32.and
            (i32.eqz (call $fd_read (i32.load (i32.const 1040)) (i32.const 1024) (i32.const 1) (i32.const 1044)))
            (i32.gt_u (i32.load (i32.const 1044)) (i32.const 0))))
        (drop (call $fd_close (i32.load (i32.const 1040))))))
    (local.get $ok))

  ;; 1 when path_open(O_CREAT, read+write) under fd 3 succeeds.
  (func $creatable (param $path i32) (param $len i32) (result i32)
    (if (i32.eqz
          (call $path_open (i32.const 3) (i32.const 1) (local.get $path) (local.get $len)
            (i32.const 1) (i64.const 66) (i64.const 0) (i32.const 0) (i32.const 1040)))
      (then
        (drop (call $fd_close (i32.load (i32.const 1040))))
        (return (i32.const 1))))
    (i32.const 0))

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
    (global.set $cursor (i32.const 67))
    (if (call $readable (i32.const 512) (i32.const 13))
      (then (call $leaked (i32.const 768) (i32.const 7))))
    (if (call $readable (i32.const 544) (i32.const 15))
      (then (call $leaked (i32.const 784) (i32.const 9))))
    (if (call $readable (i32.const 576) (i32.const 10))
      (then (call $leaked (i32.const 800) (i32.const 8))))
    (if (call $creatable (i32.const 608) (i32.const 18))
      (then (call $leaked (i32.const 816) (i32.const 9))))
    (if (call $creatable (i32.const 640) (i32.const 14))
      (then (call $leaked (i32.const 832) (i32.const 13))))
    (if (i32.eqz (call $path_unlink_file (i32.const 3) (i32.const 672) (i32.const 10)))
      (then (call $leaked (i32.const 848) (i32.const 13))))
    (if (i32.eq (global.get $cursor) (i32.const 67))
      (then (call $emit (i32.const 0) (i32.const 14)))
      (else
        (i32.store8 (i32.const 53) (i32.sub (global.get $cursor) (i32.const 54)))
        (call $emit (i32.const 32) (i32.sub (global.get $cursor) (i32.const 32)))))
    (i32.const 0))
)
