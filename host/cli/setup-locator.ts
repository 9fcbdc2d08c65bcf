import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { AGENT_MARGIN_MS, type AgentBridge } from '../agents/index.ts';
import { ConfigError } from '../errors.ts';
import { printable } from '../text/index.ts';
import { agentHasEntries } from './doctor.ts';
import { readSettings, writeSettings } from './settings-file.ts';
import { refuseLinkOut } from './setup-confine.ts';
import { PROJECT_SOCKET, shellQuote } from './setup-paths.ts';

/**
 * The user-level "locator" of an agent that reads a project's settings only
 * in the folder it starts in (Claude Code, measured with 2.1.328: started in
 * `src/` it runs the user's hooks with `$CLAUDE_PROJECT_DIR` = `src/`, and
 * none of the project root's). The user's settings are the one file it reads
 * everywhere, so `setup` registers the project there, in one entry whose
 * command carries every registered project:
 *
 *   folder  the folder whose own settings `setup` wrote (the agent runs those there)
 *   root    the project: its config and socket decide
 *   config  the project's config, absolute
 *   client  the per-event client, absolute
 *   deadline the client's deadline (ms)
 *
 * The script walks nothing on disk and reads no file the agent or a repository
 * could plant: it compares the start folder (physical) with the registered
 * paths. At a registered `folder` it steps aside (that folder's own entries
 * run); below a registered `root` the nearest one decides; anywhere else it
 * exits 0 with no output — no opinion — after one `cd`. A registered
 * project whose client is gone gets exit 1 with the reason (the entry's
 * `onFailure: "block"` blocks the call); other projects never look at it.
 */
export interface LocatorRecord {
  readonly folder: string;
  readonly root: string;
  readonly config: string;
  readonly client: string;
  readonly deadlineMs: number;
}

const FIELDS = 5;

/** `$0` of the script: how the locator's entry is told apart from hookbox's other entries (`isLocatorHandlerOf`). */
const NAME = 'hookbox-locate';

// No single quote in here: the whole script is one single-quoted word.
const SCRIPT = [
  'a=$1; shift',
  'cd -P -- "${CLAUDE_PROJECT_DIR:-$PWD}" 2>/dev/null || exit 0',
  'd=$PWD; r=; n=0',
  'while [ $# -ge 5 ]; do',
  '  [ "$d" = "$1" ] && exit 0',
  '  case $d/ in "$2"/*) if [ ${#2} -gt $n ]; then n=${#2}; r=$2; c=$3; k=$4; t=$5; fi;; esac',
  '  shift 5',
  'done',
  '[ -n "$r" ] || exit 0',
  '[ -f "$k" ] || { echo "hookbox: $d is inside the hookbox project $r, whose client $k is gone: refusing the event (in $r run hookbox setup $a, or hookbox setup $a --remove)" >&2; exit 1; }',
  'export HOOKBOX_PROJECT_DIR="$r"; cd "$r" || exit 1',
  `set -- "$a" --socket ${PROJECT_SOCKET.split(path.sep).join('/')} --config "$c" --deadline-ms "$t"`,
  'case $k in *.sh) exec sh "$k" "$@";; *.cjs) exec node "$k" "$@";; *) exec "$k" "$@";; esac',
].join('\n');

/** The locator's command line for `agent` over `records`. */
export function locatorCommand(agent: string, records: readonly LocatorRecord[]): string {
  const words = records.flatMap((record) => [record.folder, record.root, record.config, record.client, String(record.deadlineMs)]);
  return ['sh', '-c', shellQuote(SCRIPT), NAME, agent, ...words.map(shellQuote)].join(' ');
}

/** The words of a command line the locator wrote: single-quoted words (with `'\''` inside) or bare ones. */
function words(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) => (match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!));
}

/** The records of a locator command found in `file`; a record that is not five fields of the right form is an error naming the file. */
export function locatorRecords(command: string, file: string): LocatorRecord[] {
  const rest = words(command).slice(5);
  const bad = (why: string) => new ConfigError(`${file}: hookbox's locator entry ${why}; take it out with hookbox setup --remove in each project, or delete the entry by hand`);
  if (rest.length % FIELDS !== 0) throw bad(`holds ${rest.length} words after its name, not records of ${FIELDS}`);
  const records: LocatorRecord[] = [];
  for (let i = 0; i < rest.length; i += FIELDS) {
    const [folder, root, config, client, deadline] = rest.slice(i, i + FIELDS) as [string, string, string, string, string];
    for (const file of [folder, root, config, client]) if (!path.isAbsolute(file)) throw bad(`names "${printable(file)}", not an absolute path`);
    if (!/^\d{1,7}$/.test(deadline)) throw bad(`has the deadline "${printable(deadline)}", not a number of ms`);
    records.push({ folder, root, config, client, deadlineMs: Number(deadline) });
  }
  return records;
}

/** The user's settings file the locator lives in. */
export function locatorFile(bridge: AgentBridge, home = homedir()): string {
  return bridge.setup.settingsPath({ kind: 'user', home });
}

/** The registered records in the user's settings (none when the agent has no locator or the user has none). */
export function readLocator(bridge: AgentBridge, home = homedir()): LocatorRecord[] {
  const locator = bridge.setup.locator;
  if (locator === undefined) return [];
  const file = locatorFile(bridge, home);
  const command = locator.command(readSettings(file));
  return command === undefined ? [] : locatorRecords(command, file);
}

/** A folder as the script compares it: physical (`cd -P`), so a link to the project is the project. */
export function physical(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Writes the user's locator with `records` (none: the entry goes); returns the lines setup prints. */
function writeLocator(bridge: AgentBridge, records: readonly LocatorRecord[]): string[] {
  const locator = bridge.setup.locator!;
  const home = homedir();
  const file = locatorFile(bridge, home);
  refuseLinkOut(file, home, 'home folder');
  const settings = readSettings(file);
  let edit;
  try {
    const timeoutS = Math.ceil((Math.max(0, ...records.map((record) => record.deadlineMs)) + AGENT_MARGIN_MS) / 1000);
    edit = records.length === 0 ? locator.remove(settings) : locator.apply(settings, locatorCommand(bridge.name, records), timeoutS);
  } catch (error) {
    throw new ConfigError(`${file}: ${(error as Error).message}`);
  }
  const changed = edit.changes.some((change) => change.action !== 'unchanged');
  if (changed) writeSettings(file, edit.settings, false);
  return [`${bridge.label} user settings ${file}: ${changed ? `the hookbox locator ${records.length === 0 ? 'taken out' : `updated (${records.length} registered folder${records.length === 1 ? '' : 's'})`}` : 'unchanged'}`];
}

/** Registers (or re-registers) `record` by its folder: `setup` in a project. */
export function registerInLocator(bridge: AgentBridge, record: LocatorRecord): string[] {
  const kept = readLocator(bridge).filter((other) => other.folder !== record.folder);
  return writeLocator(bridge, [...kept, record]);
}

/** Takes `folder`'s record out (`setup --remove` there); nothing to do when it holds none. */
export function unregisterFromLocator(bridge: AgentBridge, folder: string): string[] {
  if (bridge.setup.locator === undefined) return [];
  const records = readLocator(bridge);
  const kept = records.filter((record) => record.folder !== physical(folder));
  return kept.length === records.length ? [] : writeLocator(bridge, kept);
}

/** The record that decides for an agent started in `dir` (the script's choice), or undefined (it steps aside or passes). */
export function locatorRecordFor(records: readonly LocatorRecord[], dir: string): LocatorRecord | undefined {
  const start = physical(dir);
  if (records.some((record) => record.folder === start)) return undefined;
  const under = records.filter((record) => `${start}/`.startsWith(`${record.root}/`));
  return under.sort((a, b) => b.root.length - a.root.length)[0];
}

/** What `setup` in a project does with the locator: registers the project (or, `off`, says what starting in a subfolder then does). */
export function setupLocator(
  bridge: AgentBridge,
  project: { readonly dir: string; readonly root: string; readonly config: string; readonly client: string; readonly deadlineMs: number },
  off: string | undefined,
): string[] {
  const reads = bridge.setup.startFolderOnly ?? '';
  if (off !== undefined) {
    return [
      `${reads}: started in a subfolder of ${project.dir}, it runs no hookbox hook unless that folder is set up too (hookbox setup ${bridge.name} --project <subfolder>); hookbox doctor run there says which. ${off}: no user-level locator, which would guard every subfolder`,
    ];
  }
  const root = physical(project.root);
  if (path.dirname(root) === root) throw new ConfigError(`${root}: the file system's root is no project for the locator; set up a project folder`);
  const record = { folder: physical(project.dir), root, config: physical(project.config), client: project.client, deadlineMs: project.deadlineMs };
  return [
    ...registerInLocator(bridge, record),
    `${reads}: so ${locatorFile(bridge)} now holds the hookbox locator, which ${bridge.label} runs in every folder. Started below ${root}, it decides with ${record.config} (and this project's server); started in ${record.folder}, it steps aside for the project's own entries; anywhere else it answers nothing at once. hookbox setup ${bridge.name} --remove here takes this project out of it`,
  ];
}

/** Whether an agent started in `dir` runs hookbox: that folder's own settings, or the user's locator deciding there. */
export function guardedIn(bridge: AgentBridge, dir: string): boolean {
  return agentHasEntries(bridge, { kind: 'project', dir }) || locatorRecordFor(readLocator(bridge), dir) !== undefined;
}
