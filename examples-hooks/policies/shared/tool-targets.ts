/**
 * The paths one tool call changes, whatever tool an agent maps it to: the
 * write/edit tools (`write_file`, Claude Code's `Write`/`Edit`/…, Gemini's
 * `replace`), `apply_patch` envelopes (Codex), and shell commands, read with
 * guard-bash's shell parser and normaliser (`sudo`, `env`, `bash -c`, `$(…)`,
 * heredocs fed to a shell) — one implementation of each. No PDK globals.
 */
import type { Reach } from './globs.ts';
import type { SimpleCommand } from '../../guard-bash/shell.ts';
import { type Invocation, SHELL_TOOLS, shellCommand, walkShell } from './shell-walk.ts';

/** One path a call changes, and how. */
export interface Target {
  readonly path: string;
  readonly op: 'write' | 'delete' | 'move';
  readonly reach: Reach;
  /** What the call went through, for the reason: `write-tool`, `patch`, `shell`. */
  readonly via: 'write-tool' | 'delete-tool' | 'patch' | 'shell';
}

/** Tools that write or edit one file. */
export const WRITE_TOOLS: ReadonlySet<string> = new Set([
  'write_file', 'edit_file', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'write', 'edit', 'replace', 'create_file', 'str_replace_editor', 'str_replace_based_edit_tool',
]);
/**
 * Tools that only read the workspace (as hooks see them: hookbox's own names,
 * which the bridges map Claude Code's `Read`/`LS` and Gemini's
 * `read_file`/`list_directory` to, and the read tools bridges pass by name).
 * Reading is not harmless — a secret is read too — but it changes nothing.
 */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'read_file', 'list_dir', 'Read', 'LS', 'Glob', 'Grep', 'NotebookRead', 'glob', 'grep_search', 'search_file_content', 'read_many_files', 'list_directory',
]);
/** Tools that delete one file. */
export const DELETE_TOOLS: ReadonlySet<string> = new Set(['delete_file', 'Delete', 'remove_file']);
const PATCH_TOOLS: ReadonlySet<string> = new Set(['apply_patch', 'applyPatch']);
/** Where a file tool names its file. */
const PATH_KEYS = ['path', 'file_path', 'filePath', 'notebook_path', 'absolute_path', 'target_file'] as const;

/** What a call changes; `unreadable` when a shell script nests too deeply to follow. */
export interface CallTargets {
  readonly targets: Target[];
  readonly unreadable: boolean;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The paths an `apply_patch` envelope adds, updates, deletes or moves. */
export function patchTargets(patch: string): Target[] {
  const out: Target[] = [];
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+?)\s*$/.exec(line);
    if (m === null) continue;
    const op = m[1] === 'Delete File' ? 'delete' : 'write';
    out.push({ path: m[2] as string, op, reach: 'exact', via: 'patch' });
  }
  return out;
}

function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const arg of args) {
    if (!ended && arg === '--') ended = true;
    else if (ended || !arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

const RECURSIVE = /^-[a-zA-Z]*[rR]/;

/** What one normalised program invocation changes. */
function invocationTargets(inv: Invocation, out: Target[]): void {
  const add = (path: string, op: Target['op'], reach: Reach) => out.push({ path, op, reach, via: 'shell' });
  const files = operands(inv.args);
  const recursive = inv.args.some((a) => RECURSIVE.test(a) || a === '--recursive');
  switch (inv.name) {
    case 'rm':
    case 'shred':
    case 'unlink':
      for (const f of files) add(f, 'delete', recursive ? 'recursive' : 'ancestor');
      return;
    case 'rmdir':
      for (const f of files) add(f, 'delete', 'ancestor');
      return;
    case 'mv':
      for (const f of files) add(f, 'move', recursive ? 'recursive' : 'ancestor');
      return;
    case 'cp':
    case 'install':
    case 'ln':
      if (files.length > 1) add(files[files.length - 1] as string, 'write', 'ancestor');
      return;
    case 'tee':
    case 'truncate':
    case 'touch':
    case 'chmod':
    case 'chown':
    case 'chgrp':
      // chmod's mode and chown's owner are operands too: as paths they match nothing protected.
      for (const f of files) add(f, 'write', 'exact');
      return;
    case 'sed':
    case 'perl':
      if (inv.args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
        // Without -e the first operand is the script, the rest are the files edited in place.
        const scripted = inv.args.some((a) => a === '-e' || a === '--expression' || a === '-f');
        for (const f of scripted ? files : files.slice(1)) add(f, 'write', 'exact');
      }
      return;
    case 'dd':
      for (const a of inv.args) if (a.startsWith('of=')) add(a.slice(3), 'write', 'exact');
      return;
    case 'find':
      if (inv.args.includes('-delete')) for (const f of files.filter((a) => !a.startsWith('('))) add(f, 'delete', 'recursive');
      return;
    case 'git': {
      const [sub, ...rest] = files;
      const paths = operands(inv.args.slice(inv.args.indexOf(sub as string) + 1));
      if (sub === 'rm') for (const f of paths) add(f, 'delete', recursive ? 'recursive' : 'ancestor');
      else if (sub === 'mv') for (const f of paths) add(f, 'move', 'ancestor');
      else if (sub === 'checkout' || sub === 'restore') {
        const dash = inv.args.indexOf('--');
        for (const f of dash >= 0 ? inv.args.slice(dash + 1) : rest.slice(sub === 'checkout' ? 1 : 0)) add(f, 'write', 'ancestor');
      }
      return;
    }
    default:
  }
}

/** The files a simple command's output redirections write (`> f`, `>> f`; not `/dev/null` nor `2>&1`). */
export function redirectWrites(command: SimpleCommand): string[] {
  return command.redirects.filter((target) => target !== '/dev/null' && !/^&?\d+$/.test(target));
}

function shellTargets(script: string, out: Target[]): boolean {
  return walkShell(script, (command, inv) => {
    for (const target of redirectWrites(command)) out.push({ path: target, op: 'write', reach: 'exact', via: 'shell' });
    if (inv !== undefined) invocationTargets(inv, out);
  });
}

/** Every path the call changes. A tool this module does not know changes nothing it can see. */
export function callTargets(toolName: string, args: Record<string, unknown>): CallTargets {
  const targets: Target[] = [];
  if (SHELL_TOOLS.has(toolName)) {
    const command = shellCommand(args);
    return { targets, unreadable: command === undefined ? false : shellTargets(command, targets) };
  }
  if (PATCH_TOOLS.has(toolName)) {
    const patch = str(args.command) ?? str(args.patch) ?? str(args.input);
    return { targets: patch === undefined ? [] : patchTargets(patch), unreadable: false };
  }
  const write = WRITE_TOOLS.has(toolName);
  if (write || DELETE_TOOLS.has(toolName)) {
    for (const key of PATH_KEYS) {
      const path = str(args[key]);
      if (path !== undefined) targets.push({ path, op: write ? 'write' : 'delete', reach: 'exact', via: write ? 'write-tool' : 'delete-tool' });
    }
    // Codex's `write_file` carries its patch when hookbox maps an `apply_patch` it could not split.
    const patch = str(args.command);
    if (patch !== undefined && patch.startsWith('*** Begin Patch')) targets.push(...patchTargets(patch));
  }
  return { targets, unreadable: false };
}
