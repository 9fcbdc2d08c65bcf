// The wire's generated copies (issue #50 item 2): host/wire.cjs is the one
// definition; the sh client (host/cli/hookbox-hook.sh, between its `wire`
// markers) and the native client (host/cli/native/wire.h) carry what they need of it
// as generated text. `npm run gen` writes them; tests/unit/wire-generated.spec.ts
// fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wire = createRequire(import.meta.url)('../host/wire.cjs');

export const SH_CLIENT = join(root, 'host', 'cli', 'hookbox-hook.sh');
export const NATIVE_HEADER = join(root, 'host', 'cli', 'native', 'wire.h');
const BEGIN = '# BEGIN wire: generated from host/wire.cjs by `npm run gen`; do not edit';
const END = '# END wire';
/** What the sh client reads past the answer's cap: the frame's first line (`hookbox <exit> <refused> <bytes> <proof>`) and curl's status. */
const FRAME_SLACK = 424;

/** A value safe between single quotes in sh (the wire's names and numbers never hold one). */
function shWord(value) {
  const text = String(value);
  if (!/^[A-Za-z0-9_.:/ -]*$/.test(text)) throw new Error(`host/wire.cjs: ${JSON.stringify(text)} is not a plain word for the sh client`);
  return `'${text}'`;
}

/** The sh client's block: the numbers, the request headers, and the project folder variable per agent. */
export function renderShBlock() {
  const rows = Object.entries(wire.PROJECT_DIR_VARIABLE).map(([agent, variable]) => `    ${agent}) base=\${${variable}-} ;;`);
  return [
    BEGIN,
    `max_socket_path=${wire.MAX_SOCKET_PATH}`,
    `default_deadline=${wire.DEFAULT_DEADLINE_MS}`,
    `max_answer=${wire.MAX_ANSWER}`,
    `max_framed=${wire.MAX_ANSWER + FRAME_SLACK}`,
    `frame_header=${shWord(`${wire.FRAME_HEADER}: ${wire.FRAME_LINE}`)}`,
    `config_header=${shWord(wire.CONFIG_HEADER)}`,
    `nonce_header=${shWord(wire.NONCE_HEADER)}`,
    '# The folder the running agent names its project by (only its own variable; none: empty).',
    'agent_project_dir() {',
    '  case $agent in',
    ...rows,
    '    *) base= ;;',
    '  esac',
    '}',
    END,
  ].join('\n');
}

/** The sh client with its block regenerated. */
export function renderShClient(current = readFileSync(SH_CLIENT, 'utf8')) {
  const start = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SH_CLIENT}: no "${BEGIN}" … "${END}" block to generate into`);
  return current.slice(0, start) + renderShBlock() + current.slice(end + END.length);
}

/** A C string literal of `text` (ASCII only: the wire's names and forms are). */
function cString(text) {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`host/wire.cjs: ${JSON.stringify(text)} is not printable ASCII for the C header`);
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The native client's header: the numbers, the headers, the per-agent tables, each closed form as JSON with `{reason}` in it. */
export function renderNativeHeader() {
  const closedRows = [];
  for (const [agent, events] of Object.entries(wire.CLOSED)) {
    for (const [event, form] of Object.entries(events)) {
      const json = form === wire.LET_THROUGH ? 'NULL' : cString(JSON.stringify(wire.FORMS[form]));
      closedRows.push(`  {${cString(agent)}, ${cString(event)}, ${json}},`);
    }
  }
  const projectRows = Object.entries(wire.PROJECT_DIR_VARIABLE).map(([agent, variable]) => `  {${cString(agent)}, ${cString(variable)}},`);
  return `/* Generated from host/wire.cjs by \`npm run gen\`; do not edit. */
#ifndef HOOKBOX_WIRE_H
#define HOOKBOX_WIRE_H

#define WIRE_MAX_SOCKET_PATH ${wire.MAX_SOCKET_PATH}
#define WIRE_DEFAULT_DEADLINE_MS ${wire.DEFAULT_DEADLINE_MS}
#define WIRE_MAX_STDIN ${wire.MAX_STDIN}
#define WIRE_MAX_ANSWER ${wire.MAX_ANSWER}
#define WIRE_MAX_REASON ${wire.MAX_REASON}
#define WIRE_CONFIG_HEADER ${cString(wire.CONFIG_HEADER)}
#define WIRE_NONCE_HEADER ${cString(wire.NONCE_HEADER)}
#define WIRE_FRAME_HEADER ${cString(wire.FRAME_HEADER)}
#define WIRE_FRAME_LINE ${cString(wire.FRAME_LINE)}
#define WIRE_REASON ${cString(wire.REASON)}

/* The agents whose events carry no name: the event is the command line's. */
static const char *const WIRE_EVENT_ON_COMMAND_LINE[] = {${wire.EVENT_ON_COMMAND_LINE.map(cString).join(', ')}, 0};

struct wire_pair { const char *agent; const char *value; };
/* The variable each agent names its project folder by. */
static const struct wire_pair WIRE_PROJECT_DIR_VARIABLE[] = {
${projectRows.join('\n')}
  {0, 0},
};

/* Agent, event, closed form (JSON with WIRE_REASON where the reason goes; NULL: let through). Not listed: exit 2. */
struct wire_closed { const char *agent; const char *event; const char *form; };
static const struct wire_closed WIRE_CLOSED[] = {
${closedRows.join('\n')}
  {0, 0, 0},
};

#endif
`;
}

/** Every generated file → its content. */
export function renderWireCopies() {
  return { [SH_CLIENT]: renderShClient(), [NATIVE_HEADER]: renderNativeHeader() };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [path, content] of Object.entries(renderWireCopies())) {
    writeFileSync(path, content);
    console.log(`wrote ${path}`);
  }
}
