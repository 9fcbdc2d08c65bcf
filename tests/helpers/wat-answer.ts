/**
 * The WAT every hand-written test hook ends with: its msgpack answer sits
 * as a data segment at memory offset 0, and the hook copies it into an
 * Extism block and makes it the call's output.
 */

/** The msgpack `{action: "allow"}` answer, 14 bytes, as a data segment at offset 0. */
export const ALLOW_ANSWER_DATA = '(data (i32.const 0) "\\81\\a6action\\a5allow")';

/** Length in bytes of {@link ALLOW_ANSWER_DATA}'s answer. */
export const ALLOW_ANSWER_LENGTH = 14;

/**
 * The tail of an export function: copies `length` bytes from offset 0 into
 * a new block, sets it as the output and returns 0. The module must import
 * `alloc`, `store_u8` and `output_set`, and the function declare
 * `(local $block i64) (local $i i32)`.
 */
export function outputFromOffsetZero(length: number): string {
  return `(local.set $block (call $alloc (i64.const ${length})))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (i32.const ${length})))
        (call $store_u8 (i64.add (local.get $block) (i64.extend_i32_u (local.get $i))) (i32.load8_u (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (call $output_set (local.get $block) (i64.const ${length}))
    (i32.const 0)`;
}

/**
 * A WAT function `$block`: copies linear memory `[ptr, ptr+len)` into a
 * fresh Extism block and returns the block (for `$output_set`). The module
 * must import `alloc` and `store_u8` (`extismModule` does when the body calls them).
 */
export const COPY_TO_BLOCK_FUNC = `(func $block (param $ptr i32) (param $len i32) (result i64)
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
    (local.get $block))`;
