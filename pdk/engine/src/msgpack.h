/* The two halves of the C MessagePack codec (msgpack.c installs them on `__hookbox`). */
#ifndef HOOKBOX_MSGPACK_H
#define HOOKBOX_MSGPACK_H

#include "quickjs.h"

/* Deepest nesting either direction accepts; deeper is a RangeError (deeper output: a cycle, most likely). */
#define HB_MSGPACK_MAX_DEPTH 64

/* `__hookbox.readInput()`: the call's input decoded (msgpack-decode.c). */
JSValue hb_msgpack_read_input(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv);

/* `__hookbox.writeOutput(value)`: `value` encoded as the call's output (msgpack-encode.c). */
JSValue hb_msgpack_write_output(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv);

#endif
