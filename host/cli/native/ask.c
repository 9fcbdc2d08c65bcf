/* The native client's request and answer: the event read within the
 * deadline, one POST on the unix socket with the nonce and the line frame,
 * the answer read to its end (capped), its frame parsed and its proof
 * checked (sha256.c) before anything in it is obeyed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "client.h"
#include "sha256.h"
#include "wire.h"

/* Reads the whole event from stdin (within the deadline, at most WIRE_MAX_STDIN bytes). */
static void read_stdin(void) {
  size_t cap = 65536;
  g_input = malloc(cap);
  for (;;) {
    if (g_input == NULL) closed("out of memory reading stdin");
    if (g_input_len == cap) {
      if (cap > WIRE_MAX_STDIN) closed("stdin over %d bytes", WIRE_MAX_STDIN);
      cap *= 2;
      g_input = realloc(g_input, cap + 1);
      continue;
    }
    wait_fd(0, POLLIN);
    ssize_t n = read(0, g_input + g_input_len, cap - g_input_len);
    if (n == 0) break;
    if (n < 0 && errno != EINTR && errno != EAGAIN) closed("cannot read stdin (%s)", strerror(errno));
    if (n > 0) g_input_len += (size_t)n;
    if (g_input_len > WIRE_MAX_STDIN) closed("stdin over %d bytes", WIRE_MAX_STDIN);
  }
}

static void send_all(int fd, const char *data, size_t n) {
  for (size_t off = 0; off < n;) {
    wait_fd(fd, POLLOUT);
    ssize_t w = send(fd, data + off, n - off, MSG_NOSIGNAL);
    if (w < 0 && errno != EINTR && errno != EAGAIN) closed("the hookbox server at %s did not answer (%s); answered closed", g_socket, strerror(errno));
    if (w > 0) off += (size_t)w;
  }
}

/* Asks the server on the socket and applies its answer (or answers closed); exits. */
int ask(const char key[65], const char *config) {
  unsigned char random[16];
  char nonce[33];
  int rnd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (rnd < 0 || read(rnd, random, sizeof random) != (ssize_t)sizeof random) exec_node(NULL, NULL);
  close(rnd);
  for (int i = 0; i < 16; i++) sprintf(nonce + 2 * i, "%02x", random[i]);
  read_stdin();
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  memcpy(addr.sun_path, g_socket, strlen(g_socket) + 1);
  if (fd < 0) closed("cannot make a socket (%s)", strerror(errno));
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    /* Nobody on the socket (a server that died): node decides in-process, from the event read here. */
    if (errno == ECONNREFUSED || errno == ENOENT) node_with_event();
    if (errno != EINPROGRESS && errno != EAGAIN) closed("the hookbox server at %s did not answer (%s); answered closed", g_socket, strerror(errno));
    wait_fd(fd, POLLOUT);
    int error = 0;
    socklen_t len = sizeof error;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
    if (error == ECONNREFUSED || error == ENOENT) node_with_event();
    if (error != 0) closed("the hookbox server at %s did not answer (%s); answered closed", g_socket, strerror(error));
  }
  char head[PATH_MAX + 512];
  int n = snprintf(head, sizeof head,
                   "POST /hooks/%s%s%s HTTP/1.1\r\nhost: hookbox\r\ncontent-type: application/json\r\ncontent-length: %zu\r\n%s: %s\r\n%s: %s\r\n%s%s%s%sconnection: close\r\n\r\n",
                   g_agent, g_event != NULL ? "/" : "", g_event != NULL ? g_event : "", g_input_len, WIRE_FRAME_HEADER, WIRE_FRAME_LINE, WIRE_NONCE_HEADER, nonce,
                   config != NULL ? WIRE_CONFIG_HEADER : "", config != NULL ? ": " : "", config != NULL ? config : "", config != NULL ? "\r\n" : "");
  send_all(fd, head, (size_t)n);
  send_all(fd, g_input, g_input_len);
  /* The answer: read to the end (the server closes after it), at most the cap and room for the headers. */
  size_t cap = WIRE_MAX_ANSWER + 65536, got = 0;
  char *reply = malloc(cap + 1);
  if (reply == NULL) closed("out of memory reading the answer");
  for (;;) {
    wait_fd(fd, POLLIN);
    ssize_t r = recv(fd, reply + got, cap - got, 0);
    if (r == 0) break;
    if (r < 0 && errno != EINTR && errno != EAGAIN) closed("the hookbox server at %s did not answer (%s); answered closed", g_socket, strerror(errno));
    if (r > 0) got += (size_t)r;
    if (got == cap) closed("the answer from %s is over %d bytes, more than hookbox serve writes", g_socket, WIRE_MAX_ANSWER);
  }
  close(fd);
  reply[got] = 0;
  int status = 0;
  char *body = strstr(reply, "\r\n\r\n");
  if (sscanf(reply, "HTTP/1.%*[01] %d", &status) != 1 || body == NULL) closed("the hookbox server at %s answered without a decision", g_socket);
  body += 4;
  size_t body_len = got - (size_t)(body - reply);
  /* The frame: `hookbox <exit> <refused> <bytes> <proof>\n<text>` (host/serve/answer-frame.ts). */
  char *nl = memchr(body, '\n', body_len);
  if (body_len < 8 || memcmp(body, "hookbox ", 8) != 0 || nl == NULL) closed("the hookbox server at %s answered without a decision", g_socket);
  *nl = 0;
  /* Four fields; a frame without the proof (a listener that cannot make it) is checked as one with an empty proof. */
  char *field[4] = {NULL, NULL, NULL, ""}, *p = body + 8;
  for (int i = 0; i < 4 && p != NULL; i++) {
    field[i] = p;
    char *space = i < 3 ? strchr(p, ' ') : NULL;
    if (space != NULL) *space = 0;
    p = space != NULL ? space + 1 : NULL;
  }
  if (field[2] == NULL) closed("the hookbox server at %s answered without a decision", g_socket);
  const char *code = field[0], *refused = field[1], *proof = field[3];
  char *text = nl + 1;
  size_t text_len = body_len - (size_t)(text - body);
  char bytes[32];
  snprintf(bytes, sizeof bytes, "%zu", text_len);
  if (strcmp(bytes, field[2]) != 0) closed("the hookbox server at %s answered without a decision", g_socket);
  if (text_len > WIRE_MAX_ANSWER) closed("the answer from %s is over %d bytes, more than hookbox serve writes", g_socket, WIRE_MAX_ANSWER);
  struct sha256 sha;
  char want[65];
  sha256_init(&sha);
  sha256_update(&sha, key, 64);
  sha256_update(&sha, "\n", 1);
  sha256_update(&sha, nonce, 32);
  sha256_update(&sha, "\n", 1);
  sha256_update(&sha, code, strlen(code));
  sha256_update(&sha, "\n", 1);
  sha256_update(&sha, refused, strlen(refused));
  sha256_update(&sha, "\n", 1);
  sha256_update(&sha, text, text_len);
  sha256_hex(&sha, want);
  if (strlen(proof) != 64 || strcmp(proof, want) != 0)
    closed("the listener on %s gave no proof that it is your hookbox serve (restart hookbox serve if it predates the proof)", g_socket);
  if (strcmp(refused, "other-config") == 0) node_with_event();
  if (strcmp(refused, "-") != 0) closed("the hookbox server at %s refused the event (%s)", g_socket, refused);
  if (strcmp(code, "0") != 0 && strcmp(code, "2") != 0) closed("the hookbox server at %s answered without a decision", g_socket);
  int blank = 1;
  for (size_t i = 0; i < text_len; i++) blank &= text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r';
  if (status != 200 && code[0] == '0' && text_len == 0) closed("hookbox serve answered HTTP %d without a decision", status);
  if (code[0] == '2' && blank) closed("hookbox serve answered closed without a reason");
  if (code[0] == '0') {
    fwrite(text, 1, text_len, stdout);
    fflush(stdout);
    _exit(0);
  }
  fwrite(text, 1, text_len, stderr);
  if (text_len == 0 || text[text_len - 1] != '\n') fputc('\n', stderr);
  fflush(stderr);
  _exit(2);
}

