/* `hookbox hook <agent> [<event>]` as a small native program (issue #55):
 * the command hook an agent runs per event, with no node and no shell start.
 * It does what the sh client (host/cli/hookbox-hook.sh) does — the socket's
 * folder checks, the frame, the listener proof (sha256.c), the deadline —
 * and answers closed itself in the agent's format (the tables of wire.h,
 * generated from host/wire.cjs). Whenever it cannot decide, it hands the
 * event to the node client (host/cli/hookbox-hook.cjs) with the same
 * arguments, as the sh client does:
 *   an argument or path it will not handle, no socket, any doubt about the
 *   socket's folders or key                 → node, stdin untouched;
 *   the socket refuses the connection, or the server serves another config
 *                                           → node, with the event read here;
 *   past --deadline-ms, a short or oversized answer, no decision, no proof
 *                                           → the closed answer, from here. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sha256.h"
#include "wire.h"
#include "client.h"

char **g_argv;
const char *g_agent = "", *g_event, *g_socket;
char *g_input;
size_t g_input_len;
static long g_deadline = WIRE_DEFAULT_DEADLINE_MS;
static struct timespec g_start;
static char g_node_client[PATH_MAX + 64];

/* The node client beside this program's package: <root>/host/cli/hookbox-hook.cjs, the binary in <root>/dist/native/<platform>/. */
static void find_node_client(void) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = 0;
  for (int up = 0; up < 4; up++) { char *slash = strrchr(self, '/'); if (slash == NULL) return; *slash = 0; }
  snprintf(g_node_client, sizeof g_node_client, "%s/host/cli/hookbox-hook.cjs", self);
}

/* The node client with this program's arguments (and `extra` after them); never returns. */
void exec_node(const char *extra1, const char *extra2) {
  int argc = 0;
  while (g_argv[argc] != NULL) argc++;
  char **args = calloc((size_t)argc + 5, sizeof *args);
  if (args == NULL) _exit(2);
  int i = 0;
  args[i++] = "node";
  args[i++] = g_node_client;
  for (int j = 1; j < argc; j++) args[i++] = g_argv[j];
  if (extra1 != NULL) args[i++] = (char *)extra1;
  if (extra2 != NULL) args[i++] = (char *)extra2;
  execvp("node", args);
  fprintf(stderr, "hookbox: cannot run node for %s (%s)\n", g_node_client, strerror(errno));
  _exit(2);
}

/* The node client with the event read here on its stdin; exits with its exit code. */
void node_with_event(void) {
  int fds[2];
  if (pipe(fds) != 0) exec_node(NULL, NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[0], 0);
    close(fds[0]); close(fds[1]);
    exec_node(NULL, NULL);
  }
  close(fds[0]);
  for (size_t off = 0; pid > 0 && off < g_input_len;) {
    ssize_t w = write(fds[1], g_input + off, g_input_len - off);
    if (w <= 0) break; /* it exited without reading all: its exit code says what happened */
    off += (size_t)w;
  }
  close(fds[1]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) _exit(2);
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
}

/* The agent's event name from the raw stdin text, as host/wire.cjs's sniffEvent reads it. */
static const char *sniff_event(void) {
  static char name[41];
  const char *key = "\"hook_event_name\"";
  for (char *p = g_input; p != NULL && (p = memmem(p, g_input_len - (size_t)(p - g_input), key, strlen(key))) != NULL; p++) {
    char *q = p + strlen(key), *end = g_input + g_input_len;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f' || *q == '\v')) q++;
    if (q >= end || *q++ != ':') continue;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f' || *q == '\v')) q++;
    if (q >= end || *q++ != '"') continue;
    size_t n = 0;
    while (q + n < end && n <= 40 && (q[n] == '_' || q[n] == '.' || (q[n] >= 'A' && q[n] <= 'Z') || (q[n] >= 'a' && q[n] <= 'z'))) n++;
    if (n < 1 || n > 40 || q + n >= end || q[n] != '"') continue;
    memcpy(name, q, n);
    name[n] = 0;
    return name;
  }
  return NULL;
}

/* The closed answer of the agent for the event, the reason `hookbox: ` and its plain words (host/wire.cjs); exits. */
void closed(const char *fmt, ...) {
  char raw[2048], text[WIRE_MAX_REASON + 16];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  size_t n = (size_t)snprintf(text, sizeof text, "hookbox: "), words = 0;
  for (const unsigned char *p = (const unsigned char *)raw; *p != 0 && words < WIRE_MAX_REASON;) {
    if (*p >= 0x20 && *p <= 0x7e) { text[n++] = (char)*p++; words++; continue; }
    while (*p != 0 && !(*p >= 0x20 && *p <= 0x7e)) p++;
    text[n++] = ' '; words++;
  }
  text[n] = 0;
  int named = 0;
  for (int i = 0; WIRE_EVENT_ON_COMMAND_LINE[i] != NULL; i++) named |= strcmp(WIRE_EVENT_ON_COMMAND_LINE[i], g_agent) == 0;
  const char *event = named ? g_event : sniff_event();
  for (int i = 0; event != NULL && WIRE_CLOSED[i].agent != NULL; i++) {
    if (strcmp(WIRE_CLOSED[i].agent, g_agent) != 0 || strcmp(WIRE_CLOSED[i].event, event) != 0) continue;
    if (WIRE_CLOSED[i].form == NULL) _exit(0);
    const char *form = WIRE_CLOSED[i].form, *hole;
    while ((hole = strstr(form, WIRE_REASON)) != NULL) {
      fwrite(form, 1, (size_t)(hole - form), stdout);
      for (const char *c = text; *c != 0; c++) { if (*c == '"' || *c == '\\') putchar('\\'); putchar(*c); }
      form = hole + strlen(WIRE_REASON);
    }
    fputs(form, stdout);
    putchar('\n');
    fflush(stdout);
    _exit(0);
  }
  fprintf(stderr, "%s\n", text);
  fflush(stderr);
  _exit(2);
}

/* Milliseconds left of the deadline (counted from the start); past it: the closed answer. */
static int left_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long spent = (now.tv_sec - g_start.tv_sec) * 1000 + (now.tv_nsec - g_start.tv_nsec) / 1000000;
  if (spent >= g_deadline) closed("no decision within %ld ms (the server took too long); answered closed", g_deadline);
  return (int)(g_deadline - spent);
}

/* Waits for `fd` to be ready for `events` within the deadline. */
void wait_fd(int fd, short events) {
  for (;;) {
    struct pollfd p = {fd, events, 0};
    int r = poll(&p, 1, left_ms());
    if (r > 0) return;
    if (r < 0 && errno != EINTR) closed("the hookbox server at %s did not answer (%s); answered closed", g_socket, strerror(errno));
  }
}

/* A real folder of this user's (and, for the socket's own, with no group/other bits): host/listener-proof.cjs's rules. */
static int my_folder(const char *dir, int private) {
  struct stat st;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) return 0;
  return !private || (st.st_mode & 077) == 0;
}

/* The checks of host/listener-proof.cjs before anything is sent; reads the key. Any doubt: node (which names it). */
static void check_listener(char key[65]) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", g_socket);
  char *slash = strrchr(dir, '/');
  if (slash == NULL || slash == dir) exec_node(NULL, NULL);
  *slash = 0;
  if (!my_folder(dir, 1)) exec_node(NULL, NULL);
  /* Every folder up to the nearest .hookbox (when one is above it). */
  char up[PATH_MAX];
  snprintf(up, sizeof up, "%s", dir);
  if (strstr(up, "/.hookbox") != NULL) {
    for (;;) {
      char *last = strrchr(up, '/');
      if (last == NULL) break;
      if (strcmp(last, "/.hookbox") == 0) break;
      if (last == up) break;
      *last = 0;
      if (!my_folder(up, 0)) exec_node(NULL, NULL);
    }
  }
  struct stat st;
  if (lstat(g_socket, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != geteuid()) exec_node(NULL, NULL);
  char keyfile[PATH_MAX];
  snprintf(keyfile, sizeof keyfile, "%s.key", g_socket);
  int fd = open(keyfile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0) exec_node(NULL, NULL);
  char buf[80];
  ssize_t n = read(fd, buf, sizeof buf);
  close(fd);
  if (n < 64) exec_node(NULL, NULL);
  for (int i = 0; i < 64; i++) if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f'))) exec_node(NULL, NULL);
  for (ssize_t i = 64; i < n; i++) if (buf[i] != '\n' && buf[i] != ' ' && buf[i] != '\r' && buf[i] != '\t') exec_node(NULL, NULL);
  memcpy(key, buf, 64);
  key[64] = 0;
}

/* `path` made absolute from `base` (a copy). */
static char *absolute(const char *path, const char *base) {
  if (path[0] == '/') return strdup(path);
  char *out = malloc(strlen(base) + strlen(path) + 2);
  if (out != NULL) sprintf(out, "%s/%s", base, path);
  return out;
}

static int all_of(const char *s, const char *allowed) { return strspn(s, allowed) == strlen(s); }

int main(int argc, char **argv) {
  (void)argc;
  g_argv = argv;
  clock_gettime(CLOCK_MONOTONIC, &g_start);
  signal(SIGPIPE, SIG_IGN);
  find_node_client();
  /* What `hookbox setup --client native` runs to see that this build runs here. */
  if (argv[1] != NULL && strcmp(argv[1], "--probe") == 0) {
    printf("hookbox-hook native (wire: socket path <= %d bytes, deadline %d ms)\n", WIRE_MAX_SOCKET_PATH, WIRE_DEFAULT_DEADLINE_MS);
    return 0;
  }
  const char *socket_arg = getenv("HOOKBOX_SOCKET"), *config_arg = getenv("HOOKBOX_CONFIG"), *deadline_arg = NULL;
  for (int i = 1; argv[i] != NULL; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--socket") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "--deadline-ms") == 0 || strcmp(a, "--max-continuations") == 0) {
      if (argv[i + 1] == NULL) exec_node(NULL, NULL);
      if (a[2] == 's') socket_arg = argv[i + 1];
      else if (a[2] == 'c') config_arg = argv[i + 1];
      else if (a[2] == 'd') deadline_arg = argv[i + 1];
      i++;
    } else if (strcmp(a, "--no-autostart") == 0) {
      /* The node client's, when it takes over (it gets the same arguments). */
    } else if (a[0] == '-') exec_node(NULL, NULL);
    else if (g_agent[0] == 0) g_agent = a;
    else if (g_event == NULL) g_event = a;
    else exec_node(NULL, NULL);
  }
  if (g_agent[0] == 0 || !all_of(g_agent, "abcdefghijklmnopqrstuvwxyz0123456789-")) exec_node(NULL, NULL);
  if (g_event != NULL && (strlen(g_event) > 40 || g_event[0] == 0 || !all_of(g_event, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))) exec_node(NULL, NULL);
  if (deadline_arg != NULL) {
    if (deadline_arg[0] == '0' || deadline_arg[0] == 0 || strlen(deadline_arg) > 9 || !all_of(deadline_arg, "0123456789")) exec_node(NULL, NULL);
    g_deadline = atol(deadline_arg);
  }
  /* Relative paths start at the project the running agent names (its own variable only), else here. */
  char cwd[PATH_MAX];
  const char *base = getenv("HOOKBOX_PROJECT_DIR");
  if (base == NULL || base[0] != '/') {
    base = NULL;
    for (int i = 0; WIRE_PROJECT_DIR_VARIABLE[i].agent != NULL; i++)
      if (strcmp(WIRE_PROJECT_DIR_VARIABLE[i].agent, g_agent) == 0) base = getenv(WIRE_PROJECT_DIR_VARIABLE[i].value);
    if (base == NULL || base[0] != '/') base = getcwd(cwd, sizeof cwd);
    if (base == NULL) exec_node(NULL, NULL);
  }
  char home_socket[PATH_MAX];
  if (socket_arg == NULL || socket_arg[0] == 0) {
    const char *home = getenv("HOOKBOX_HOME"), *user = getenv("HOME");
    if (home != NULL) snprintf(home_socket, sizeof home_socket, "%s/serve.sock", home);
    else if (user != NULL && user[0] != 0) snprintf(home_socket, sizeof home_socket, "%s/.hookbox/serve.sock", user);
    else exec_node(NULL, NULL);
    if (home_socket[0] != '/') exec_node(NULL, NULL);
    socket_arg = home_socket;
  }
  g_socket = absolute(socket_arg, base);
  const char *config = config_arg != NULL && config_arg[0] != 0 ? absolute(config_arg, base) : NULL;
  if (g_socket == NULL || strlen(g_socket) > WIRE_MAX_SOCKET_PATH) exec_node(NULL, NULL);
  /* The config goes in a header as is: only characters that need no encoding. */
  if (config != NULL && !all_of(config, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._~+@,=-")) exec_node(NULL, NULL);
  struct stat st;
  if (lstat(g_socket, &st) != 0) exec_node(NULL, NULL); /* no server: node decides in-process (and starts one) */
  char key[65];
  check_listener(key);
  return ask(key, config);
}
