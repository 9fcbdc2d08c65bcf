/**
 * The hosts one tool call reaches: URLs and hosts in the arguments of shell
 * downloaders (`curl`, `wget`, httpie, `aria2c`), `git` remotes, `ssh`/`scp`/
 * `rsync`, `nc`, interpreters' `-c`/`-e` scripts; URLs in fetch tools'
 * arguments (Claude Code's `WebFetch`, Gemini's `web_fetch`) and in any MCP
 * tool's. Every program a shell command runs, through guard-bash's parser.
 * No PDK globals.
 */
import { hostOf, stringsIn, urlsIn } from '../shared/hosts.ts';
import { mcpTool } from '../shared/mcp.ts';
import { SHELL_TOOLS, shellCommand, walkShell, type Invocation } from '../shared/shell-walk.ts';

/** One host a call reaches, and what reaches it (for the reason). */
export interface Reach {
  readonly host: string;
  readonly via: string;
}

/** Tools that fetch a URL (no hookbox tool does; the agents' do). */
export const FETCH_TOOLS: ReadonlySet<string> = new Set(['WebFetch', 'web_fetch', 'fetch', 'fetch_url', 'read_url', 'http_request', 'browser_navigate', 'open_url']);

const DOWNLOADERS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'xhs', 'httpie', 'aria2c', 'axel', 'lwp-request', 'fetch']);
/** Downloader options whose value is the next word (a header, a file, a method), not a host. */
const DOWNLOADER_VALUES = new Set(['-o', '-H', '-d', '-X', '-u', '-A', '-e', '-F', '-T', '-b', '-c', '-K', '-w', '-m', '-r', '-E', '-D', '-P', '-U', '--output', '--header', '--user', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--request', '--user-agent', '--referer', '--form', '--upload-file', '--cookie', '--cookie-jar', '--config', '--write-out', '--max-time', '--range', '--cert', '--dump-header', '--output-document', '--directory-prefix', '--user-agent', '--header', '--post-data', '--body-data', '--method']);
const SSH_FAMILY = new Set(['ssh', 'scp', 'sftp', 'rsync', 'mosh']);
const SSH_VALUES = new Set(['-p', '-P', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-E', '-e', '-m', '-O', '-Q', '-S', '-W', '-w']);
const SOCKETS = new Set(['nc', 'ncat', 'netcat', 'telnet', 'socat']);
const INTERPRETERS = /^(?:python[0-9.]*|node|nodejs|deno|bun|ruby|perl|php)$/;
const GIT_REMOTE_VERBS = new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'remote', 'submodule']);

/** The operands of an invocation: its words that are not options nor an option's value. */
function operands(args: readonly string[], valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (valued.has(arg)) i++;
    else if (!arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

function push(out: Reach[], host: string | undefined, via: string): void {
  if (host !== undefined) out.push({ host, via });
}

/** What one normalised program reaches. */
export function invocationReach(inv: Invocation, out: Reach[]): void {
  const name = inv.name;
  if (DOWNLOADERS.has(name)) {
    // Any URL, also an option's value (`--url`, `-x proxy`); a bare host only as an operand.
    for (const arg of inv.args) for (const url of urlsIn(arg)) push(out, hostOf(url), name);
    for (const operand of operands(inv.args, DOWNLOADER_VALUES)) if (!/:\/\//.test(operand)) push(out, hostOf(operand), name);
  } else if (name === 'git') {
    if (!inv.args.some((arg) => GIT_REMOTE_VERBS.has(arg))) return;
    for (const arg of inv.args) if (!arg.startsWith('-')) push(out, /:\/\/|^[^/\s]+@[^/\s]+:/.test(arg) ? hostOf(arg) : undefined, 'git');
  } else if (SSH_FAMILY.has(name)) {
    const words = operands(inv.args, SSH_VALUES);
    if (name === 'ssh' || name === 'mosh' || name === 'sftp') push(out, hostOf(`x://${(words[0] ?? '').replace(/^.*@/, '')}`), name);
    else for (const word of words) if (/^(?:[^/\s]+@)?[^/\s:]+:/.test(word)) push(out, hostOf(`x://${word.replace(/^.*@/, '').replace(/:.*$/, '')}`), name);
  } else if (SOCKETS.has(name)) {
    const word = operands(inv.args, new Set(['-p', '-s', '-w', '-i', '-e', '-c']))[0];
    if (word !== undefined && !/^\d+$/.test(word)) push(out, hostOf(`x://${word.replace(/^[a-z0-9-]+:/i, '')}`), name);
  } else if (INTERPRETERS.test(name)) {
    // A one-liner's URLs (`python -c "urlopen('https://…')"`); scripts in files are not read.
    for (const arg of inv.args) for (const url of urlsIn(arg)) push(out, hostOf(url), name);
    for (const text of inv.stdinTexts) for (const url of urlsIn(text)) push(out, hostOf(url), name);
  }
}

/** The hosts a call reaches; `unreadable` when its shell script nests too deeply to follow. */
export function callReach(toolName: string, args: Record<string, unknown>): { reach: Reach[]; unreadable: boolean } {
  const reach: Reach[] = [];
  if (SHELL_TOOLS.has(toolName)) {
    const command = shellCommand(args);
    if (command === undefined) return { reach, unreadable: false };
    const unreadable = walkShell(command, (_command, inv) => {
      if (inv !== undefined) invocationReach(inv, reach);
    });
    return { reach, unreadable };
  }
  const mcp = mcpTool(toolName);
  if (mcp === undefined && !FETCH_TOOLS.has(toolName)) return { reach, unreadable: false };
  for (const text of stringsIn(args)) for (const url of urlsIn(text)) push(reach, hostOf(url), toolName);
  // A fetch tool's `url` may come without its scheme.
  for (const key of ['url', 'uri', 'host']) {
    const value = args[key];
    if (typeof value === 'string' && !/:\/\//.test(value)) push(reach, hostOf(value), toolName);
  }
  return { reach, unreadable: false };
}
