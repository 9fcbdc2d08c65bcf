/*
 * The text of a thrown value, for the Extism error (a call) or stderr (build
 * time): "Name: message\n<stack>" for errors, "Uncaught " + String(value) for
 * anything else; and whether it is QuickJS's own out-of-memory error.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

void hb_sb_put(hb_strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = (b->len + n + 1) * 2;
    char *next = realloc(b->data, cap);
    if (!next) return;
    b->data = next;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

/* String(v), or a placeholder when even that throws. */
static void sb_js(JSContext *ctx, hb_strbuf *b, JSValueConst v) {
  size_t n;
  const char *s = JS_ToCStringLen(ctx, &n, v);
  if (s) {
    hb_sb_put(b, s, n);
    JS_FreeCString(ctx, s);
  } else {
    JS_FreeValue(ctx, JS_GetException(ctx));
    hb_sb_put(b, "<unprintable>", 13);
  }
}

void hb_describe_exception(JSContext *ctx, hb_strbuf *b, JSValueConst exc) {
  if (JS_IsError(ctx, exc)) {
    JSValue name = JS_GetPropertyStr(ctx, exc, "name");
    JSValue message = JS_GetPropertyStr(ctx, exc, "message");
    JSValue stack = JS_GetPropertyStr(ctx, exc, "stack");
    sb_js(ctx, b, name);
    hb_sb_put(b, ": ", 2);
    sb_js(ctx, b, message);
    if (JS_IsString(stack)) {
      hb_sb_put(b, "\n", 1);
      sb_js(ctx, b, stack);
    }
    JS_FreeValue(ctx, name);
    JS_FreeValue(ctx, message);
    JS_FreeValue(ctx, stack);
  } else {
    hb_sb_put(b, "Uncaught ", 9);
    sb_js(ctx, b, exc);
  }
}

int hb_is_out_of_memory(JSContext *ctx, JSValueConst exc) {
  if (!JS_IsError(ctx, exc)) return 0;
  JSValue message = JS_GetPropertyStr(ctx, exc, "message");
  const char *s = JS_ToCString(ctx, message);
  int oom = s && strcmp(s, "out of memory") == 0;
  if (s) JS_FreeCString(ctx, s);
  else JS_FreeValue(ctx, JS_GetException(ctx));
  JS_FreeValue(ctx, message);
  return oom;
}
