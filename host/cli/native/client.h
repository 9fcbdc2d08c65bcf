/* What the native client's two files share (hookbox-hook.c: arguments, checks,
 * closed answers; ask.c: the request, the answer, the proof). */
#ifndef HOOKBOX_CLIENT_H
#define HOOKBOX_CLIENT_H
#include <stddef.h>

extern char **g_argv;
extern const char *g_agent, *g_event, *g_socket;
extern char *g_input;
extern size_t g_input_len;

/* The node client with this program's arguments; never returns. */
void exec_node(const char *extra1, const char *extra2) __attribute__((noreturn));
/* The node client with the event read here on its stdin; exits with its exit code. */
void node_with_event(void) __attribute__((noreturn));
/* The agent's closed answer with the reason; exits. */
void closed(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Waits for `fd` within the deadline (past it: the closed answer). */
void wait_fd(int fd, short events);
/* Asks the server on the socket and applies its answer (or answers closed); exits. */
int ask(const char key[65], const char *config) __attribute__((noreturn));
#endif
