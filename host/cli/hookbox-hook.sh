#!/bin/sh
# `hookbox hook <agent> [<event>]` without a Node start: the command hook an
# agent runs per event, in POSIX sh (the event only for an agent whose events
# carry no name, Copilot CLI's own format: it goes in the URL). It posts the
# event on stdin to `hookbox serve`'s unix socket with curl and applies the answer — stdout on exit 0, stderr on
# exit 2, the exit code — exactly as the Node client (hookbox-hook.cjs, the
# same arguments) does. Whenever it cannot do that itself it hands the event
# to the Node client, which decides in-process or answers the event's closed
# form in the agent's format:
#   no curl, no socket, a socket path or config path it will not send, an
#   argument it does not know            → the Node client, stdin untouched;
#   the socket refuses the connection (a server that died), or the server
#   serves another project's config      → the Node client decides in-process;
#   past --deadline-ms, curl failing, an answer without a decision, or one a
#   shell variable cannot carry (a NUL)  → the Node client answers closed.
# The event's bytes are never read by the shell: stdin is copied to a private
# temporary file (mktemp: random name, 0600, unlinked at once; the copy is
# what the Node client gets when it takes over) and curl sends it from there.
# The server frames its answer for this client (`x-hookbox-frame: line`,
# host/serve/answer-frame.ts): `hookbox <exit> <refused> <bytes> <proof>` on the
# first line, then the text. Reading stdin is not bounded by the deadline here
# (agents close stdin after writing the event); everything after it is.
set -eu
LC_ALL=C # ${#text} counts bytes

case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
client=$here/hookbox-hook.cjs

# BEGIN wire: generated from host/wire.cjs by `npm run gen`; do not edit
max_socket_path=107
default_deadline=25000
max_answer=1048576
max_framed=1049000
frame_header='x-hookbox-frame: line'
config_header='x-hookbox-config'
nonce_header='x-hookbox-nonce'
# The folder the running agent names its project by (only its own variable; none: empty).
agent_project_dir() {
  case $agent in
    claude-code) base=${CLAUDE_PROJECT_DIR-} ;;
    gemini) base=${GEMINI_PROJECT_DIR-} ;;
    qwen) base=${QWEN_PROJECT_DIR-} ;;
    factory) base=${FACTORY_PROJECT_DIR-} ;;
    copilot) base=${COPILOT_PROJECT_DIR-} ;;
    *) base= ;;
  esac
}
# END wire

# The Node client with this client's own arguments (and, once stdin is copied, the copy on stdin).
to_node() {
  exec node "$client" "$@"
}

agent=
event=
socket=${HOOKBOX_SOCKET-}
config=${HOOKBOX_CONFIG-}
deadline=$default_deadline
want=
for arg do
  if [ -n "$want" ]; then
    case $want in
      socket) socket=$arg ;;
      config) config=$arg ;;
      deadline) deadline=$arg ;;
    esac
    want=
    continue
  fi
  case $arg in
    --socket) want=socket ;;
    --config) want=config ;;
    --deadline-ms) want=deadline ;;
    --max-continuations) want=skip ;;
    --no-autostart) ;; # the Node client's, when it takes over (it gets "$@")
    -*) to_node "$@" ;;
    *)
      if [ -z "$agent" ]; then agent=$arg
      elif [ -z "$event" ]; then event=$arg
      else to_node "$@"; fi
      ;;
  esac
done
[ -z "$want" ] || to_node "$@"
case $agent in '' | *[!a-z0-9-]*) to_node "$@" ;; esac
# An agent whose events carry no name (Copilot CLI) has it on the command line; it goes in the URL.
case $event in *[!A-Za-z]* | ?????????????????????????????????????????*) to_node "$@" ;; esac
route=$agent${event:+/$event}
case $deadline in '' | 0* | *[!0-9]* | ??????????*) to_node "$@" ;; esac

# Relative paths start at the project the agent names (only the running agent's own variable), else here.
base=${HOOKBOX_PROJECT_DIR-}
case $base in
  /*) ;;
  *)
    agent_project_dir
    case $base in /*) ;; *) base=$PWD ;; esac
    ;;
esac
if [ -z "$socket" ]; then
  case ${HOOKBOX_HOME+set} in set) home=$HOOKBOX_HOME ;; *) home=${HOME:+$HOME/.hookbox} ;; esac
  case $home in /*) socket=$home/serve.sock ;; *) to_node "$@" ;; esac
fi
case $socket in /*) ;; *) socket=$base/$socket ;; esac
case $config in '' | /*) ;; *) config=$base/$config ;; esac
# The config goes in a header as is: only characters that need no encoding (else the Node client sends it).
case $config in *[!A-Za-z0-9/._~+@,=-]*) to_node "$@" ;; esac
# A socket path past what the kernel takes, no socket, or no curl: the Node client.
[ "${#socket}" -le "$max_socket_path" ] || to_node "$@"
[ -S "$socket" ] || to_node "$@"
command -v curl >/dev/null 2>&1 || to_node "$@"

# Whatever listens on the socket must be this user's `hookbox serve`: the
# checks of host/listener-proof.cjs (the source; mirrored here). The socket's
# folder a real folder of this user's with no group/other bits, every folder
# up to the nearest .hookbox a real folder of this user's, the socket this
# user's, its key file (<socket>.key) 0600 and this user's; the answer then
# carries the proof only a reader of that key can make (checked below with
# sha256sum). Any doubt here goes to the Node client, stdin untouched: it
# checks again and answers closed, naming what is wrong.
command -v sha256sum >/dev/null 2>&1 || to_node "$@"
command -v od >/dev/null 2>&1 || to_node "$@"
# Types and owners with test's own operators (no process each): -O is "owned by me".
dir=${socket%/*}
[ -d "$dir" ] && [ ! -L "$dir" ] && [ -O "$dir" ] || to_node "$@"
case $dir in
  */.hookbox | */.hookbox/*)
    up=$dir
    while :; do
      case $up in */.hookbox) break ;; esac
      up=${up%/*}
      [ -d "$up" ] && [ ! -L "$up" ] && [ -O "$up" ] || to_node "$@"
    done
    ;;
esac
[ -S "$socket" ] && [ ! -L "$socket" ] && [ -O "$socket" ] || to_node "$@"
[ -f "$socket.key" ] && [ ! -L "$socket.key" ] && [ -O "$socket.key" ] || to_node "$@"
# The modes, both from one `ls` (LC_ALL=C sorts the folder before the key inside it): each
# line's first word. A trailing `.` (an SELinux label) is fine; a `+` (an ACL) is a doubt.
nl='
'
modes=$(ls -ldn -- "$dir" "$socket.key" 2>/dev/null) || to_node "$@"
case ${modes%%[ ]*} in d???------ | d???------.) ;; *) to_node "$@" ;; esac
modes=${modes#*"$nl"}
case ${modes%%[ ]*} in -??------- | -??-------.) ;; *) to_node "$@" ;; esac
IFS= read -r key <"$socket.key" || to_node "$@"
case $key in *[!0-9a-f]* | '') to_node "$@" ;; esac
[ "${#key}" = 64 ] || to_node "$@"
# The nonce: 16 random bytes as 32 hex digits (od's words joined without another process).
nonce=
for byte in $(od -An -N16 -tx1 /dev/urandom); do nonce=$nonce$byte; done
[ "${#nonce}" = 32 ] || to_node "$@"

tmp=
trap 'rm -f -- "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
tmp=$(mktemp "${TMPDIR:-/tmp}/hookbox-hook.XXXXXXXXXX")
cat >"$tmp"
# Two readers of the copy, each at its start: one for curl, one for the Node client should it take over.
exec 3<"$tmp" 4<"$tmp"
rm -f -- "$tmp"
trap - EXIT HUP INT TERM

# The Node client with the copy of the event on stdin (optionally told to answer closed).
to_node_with_event() {
  exec node "$client" "$@" <&4 3<&- 4<&-
}

config_line="$config_header:${config:+ $config}"
seconds=$((deadline / 1000)).$(printf '%03d' $((deadline % 1000)))
# -q first: no ~/.curlrc. `Expect:` off: no wait for 100-continue on a large event.
# The curl exit code follows the body after a space (it also keeps the body's trailing newlines).
out=$(
  rc=0
  curl -q -s --noproxy '*' --unix-socket "$socket" --max-time "$seconds" --max-filesize "$max_framed" \
    -H 'content-type: application/json' -H 'Expect:' -H "$frame_header" -H "$config_line" -H "$nonce_header: $nonce" \
    -w '%{http_code}' --data-binary @- "http://hookbox/hooks/$route" <&3 2>/dev/null || rc=$?
  printf ' %s' "$rc"
)
exec 3<&-
# Past the cap before any pattern runs over it (a shell's ${…%…} on megabytes takes minutes): not hookbox serve's answer.
[ "${#out}" -le "$max_framed" ] || to_node_with_event "$@" --answer-closed "the answer from $socket is over $max_answer bytes, more than hookbox serve writes"
rc=${out##* }
out=${out% *}
# curl's -w put the HTTP status (three digits) after the body.
status=${out#"${out%???}"}
out=${out%???}
case $rc in
  0) ;;
  7) to_node_with_event "$@" ;;
  28) to_node_with_event "$@" --answer-closed "no decision within $deadline ms (the server took too long); answered closed" ;;
  *) to_node_with_event "$@" --answer-closed "the hookbox server at $socket did not answer (curl exit $rc); answered closed" ;;
esac

nl='
'
case $out in
  "hookbox "*"$nl"*) ;;
  *) to_node_with_event "$@" --answer-closed "the hookbox server at $socket answered without a decision" ;;
esac
head=${out%%"$nl"*}
text=${out#*"$nl"}
rest=${head#hookbox }
code=${rest%% *}
rest=${rest#* }
refused=${rest%% *}
rest=${rest#* }
bytes=${rest%% *}
proof=${rest#* }
[ "${#text}" = "$bytes" ] || to_node_with_event "$@" --answer-closed "an answer the sh client cannot carry (it holds a NUL byte)"
[ "$bytes" -le "$max_answer" ] || to_node_with_event "$@" --answer-closed "the answer from $socket is over $max_answer bytes, more than hookbox serve writes"
want=$(printf '%s\n%s\n%s\n%s\n%s' "$key" "$nonce" "$code" "$refused" "$text" | sha256sum)
[ "$proof" = "${want%% *}" ] || to_node_with_event "$@" --answer-closed "the listener on $socket gave no proof that it is your hookbox serve (restart hookbox serve if it predates the proof)"
case $refused in
  -) ;;
  other-config) to_node_with_event "$@" ;;
  *) to_node_with_event "$@" --answer-closed "the hookbox server at $socket refused the event ($refused)" ;;
esac
case $code in
  0 | 2) ;;
  *) to_node_with_event "$@" --answer-closed "the hookbox server at $socket answered without a decision" ;;
esac
# Not 200 and nothing said: an error page, not "no objection"; a refusal without a reason gets the agent's own closed form.
[ "$status" = 200 ] || [ "$code" != 0 ] || [ -n "$text" ] || to_node_with_event "$@" --answer-closed "hookbox serve answered HTTP $status without a decision"
[ "$code" != 2 ] || [ -n "$text" ] || to_node_with_event "$@" --answer-closed "hookbox serve answered closed without a reason"
if [ "$code" = 0 ]; then
  printf '%s' "$text"
  exit 0
fi
case $text in *"$nl") ;; *) text=$text$nl ;; esac
printf '%s' "$text" >&2
exit 2
