import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentSetup, HandlerPosition, ProtectedPath, SetupChange, SetupEdit, SetupScope, SetupTransport } from '../agent-bridge.ts';
import { isHookboxCommand } from '../hook-groups.ts';
import { noSystemScope } from '../system-setup.ts';
import { CLINE_EVENT_NAMES } from './protocol.ts';

/** Cline 3.0.65 waits this long for a hook file (fixed, no setting), then goes on as if it had answered nothing: the call runs. */
export const CLINE_HOOK_TIMEOUT_MS = 120_000;

/** The line that marks a hook file as hookbox's: only such a file is replaced or removed. */
const MARKER = '# hookbox: written by `hookbox setup cline`; `hookbox setup cline --remove` deletes it.';

/** One event's file as setup reads it: hookbox's (its command, without the event word), or someone else's. */
type HookFile = { readonly command: string } | { readonly foreign: true };

/** `$CLINE_DIR`, else `~/.cline`: where Cline keeps its global hooks folder. */
function clineDir(home: string): string {
  const env = process.env.CLINE_DIR;
  return env !== undefined && env.trim() !== '' ? path.resolve(env.trim()) : path.join(home, '.cline');
}

/** The hooks folder setup writes: a project's `.clinerules/hooks/`, the user's `~/.cline/hooks/`. */
function settingsPath(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.clinerules', 'hooks') : path.join(clineDir(scope.home), 'hooks');
}

/**
 * Every folder Cline 3.0.65 loads hook files from for the scope (read from
 * its hooks search path): each file in it runs, so each is guarded whole.
 */
function protectedPaths(scope: SetupScope): ProtectedPath[] {
  const folders =
    scope.kind === 'project'
      ? [path.join(scope.dir, '.clinerules', 'hooks'), path.join(scope.dir, '.cline', 'hooks')]
      : [path.join(clineDir(scope.home), 'hooks'), path.join(scope.home, 'Documents', 'Cline', 'Hooks')];
  return folders.map((folder) => ({ path: folder, folder: true }));
}

function fileText(command: string, event: string): string {
  return `#!/bin/sh\n${MARKER}\n${command} ${event}\n`;
}

/** A hook file's text → hookbox's command, or foreign (anything setup did not write, byte for byte in form). */
function readHookFile(text: string, event: string): HookFile {
  const lines = text.split('\n');
  const command = lines[2];
  const ours = lines.length === 4 && lines[0] === '#!/bin/sh' && lines[1] === MARKER && lines[3] === '' && command !== undefined && command.endsWith(` ${event}`);
  if (!ours || !isHookboxCommand(command, 'cline')) return { foreign: true };
  return { command: command.slice(0, -event.length - 1) };
}

function hooksOf(settings: Record<string, unknown>): Record<string, HookFile> {
  const hooks = settings.hooks;
  return typeof hooks === 'object' && hooks !== null ? (hooks as Record<string, HookFile>) : {};
}

/** The hooks folder as setup's settings object: `{hooks: {<Event>: {command} | {foreign: true}}}` for each event file there. */
function read(folder: string): Record<string, unknown> {
  const hooks: Record<string, HookFile> = {};
  for (const event of CLINE_EVENT_NAMES) {
    const file = path.join(folder, event);
    if (existsSync(file)) hooks[event] = readHookFile(readFileSync(file, 'utf8'), event);
  }
  return Object.keys(hooks).length === 0 ? {} : { hooks };
}

/** Writes hookbox's event files (executable, each by rename) and deletes those of hookbox's no longer in `settings`; a foreign file is never touched. */
function write(folder: string, settings: Record<string, unknown>): void {
  const wanted = hooksOf(settings);
  for (const event of CLINE_EVENT_NAMES) {
    const file = path.join(folder, event);
    const present = existsSync(file) ? readHookFile(readFileSync(file, 'utf8'), event) : undefined;
    if (present !== undefined && 'foreign' in present) continue;
    const entry = wanted[event];
    if (entry === undefined || 'foreign' in entry) {
      if (present !== undefined) rmSync(file, { force: true });
      continue;
    }
    mkdirSync(folder, { recursive: true });
    const temp = `${file}.hookbox-${process.pid}.tmp`;
    writeFileSync(temp, fileText(entry.command, event), { mode: 0o755 });
    chmodSync(temp, 0o755); // the umask may have taken bits off: Cline runs the file itself
    renameSync(temp, file);
  }
}

/**
 * A file per event hookbox reads, each running the hook command with the
 * event's name. A file of that name hookbox did not write is refused, never
 * overwritten. Idempotent.
 */
function apply(settings: Record<string, unknown>, transport: SetupTransport): SetupEdit {
  if (transport.kind !== 'command') throw new TypeError('Cline CLI runs command hooks only (an executable file per event)');
  const before = hooksOf(settings);
  const hooks: Record<string, HookFile> = { ...before };
  const changes: SetupChange[] = [];
  for (const event of CLINE_EVENT_NAMES) {
    const old = before[event];
    if (old !== undefined && 'foreign' in old) {
      throw new TypeError(`${event}: a hook file hookbox did not write is there, and hookbox will not overwrite it — move it aside (to ${event}.sh, which Cline runs as well) and run setup again`);
    }
    hooks[event] = { command: transport.command };
    const action = old === undefined ? 'added' : old.command === transport.command ? 'unchanged' : 'replaced';
    changes.push({ action, where: `hooks.${event}[0]`, what: `hook file ${event} running ${transport.command} ${event}` });
  }
  return { settings: { ...settings, hooks }, changes };
}

/** Takes out exactly hookbox's event files; every other file stays. */
function remove(settings: Record<string, unknown>): SetupEdit {
  const hooks: Record<string, HookFile> = {};
  const changes: SetupChange[] = [];
  for (const [event, entry] of Object.entries(hooksOf(settings))) {
    if ('foreign' in entry) hooks[event] = entry;
    else changes.push({ action: 'removed', where: `hooks.${event}[0]`, what: `hook file ${event} running ${entry.command} ${event}` });
  }
  const { hooks: _ours, ...rest } = settings;
  return { settings: Object.keys(hooks).length === 0 ? rest : { ...rest, hooks }, changes };
}

/** hookbox's files as doctor probes them: the command each runs, the event named. */
function handlers(settings: Record<string, unknown>): HandlerPosition[] {
  return Object.entries(hooksOf(settings)).flatMap(([event, entry]) =>
    'foreign' in entry ? [] : [{ event, group: 0, index: 0, matcher: undefined, handler: { type: 'command', command: `${entry.command} ${event}` } }],
  );
}

/** Where hookbox's Cline hook files go, and how they are written and taken out. */
export const clineSetup: AgentSetup = {
  detect: { folders: ['.clinerules', '.cline'], commands: ['cline'] },
  settingsPath,
  protectedPaths,
  folderFormat: { read, write },
  fixedAnswerTimeoutMs: CLINE_HOOK_TIMEOUT_MS,
  system: noSystemScope(
    'Cline reads hook files from the project (.clinerules/hooks) and the user\'s folders only; no machine-wide hooks folder was measured here',
    "hookbox setup cline --user (the user's hooks folder) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change it, but the developer can",
  ),
  handlers,
  unsupported: (transport) =>
    transport === 'command' ? undefined : `Cline CLI has no ${transport} hooks (it runs an executable file per event, which runs hookbox's command); use --transport command`,
  apply,
  remove,
  tradeOff: () =>
    `Cline CLI 3.0.65 runs these files with no setting to turn on; it waits ${CLINE_HOOK_TIMEOUT_MS / 1000} s for each and runs the call when a hook times out or prints no JSON, so the client answers (closed) within its own deadline first. A deny stops the whole task (the model never reads the reason); TaskStart, UserPromptSubmit, TaskComplete and SessionShutdown run detached, their answers unread`,
};
