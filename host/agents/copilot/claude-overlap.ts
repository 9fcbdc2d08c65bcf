import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { copilotSetup } from './setup.ts';

/**
 * Copilot CLI runs the hooks of a project's `.claude/settings.json` besides
 * its own (measured with 1.0.102: both files' hooks ran for one call). Its
 * Claude-format events are told from Claude Code's by their shape: a
 * `timestamp` string on every event (Claude Code sends none) and no
 * `permission_mode` (Claude Code's are never without it). Its Stop carries a
 * `transcript_path`, its other events none, so that field tells nothing.
 */
export function sentByCopilot(data: Readonly<Record<string, unknown>>): boolean {
  return typeof data.timestamp === 'string' && !Object.hasOwn(data, 'permission_mode');
}

function hasCopilotEntries(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    return copilotSetup.remove(copilotSetup.fileFormat!.parse(readFileSync(file, 'utf8'))).changes.length > 0;
  } catch {
    return false;
  }
}

/**
 * Whether Copilot's own hookbox entries decide events in `cwd`: its
 * project's `.github/hooks/hookbox.json` (in `cwd` or a folder above it, up
 * to the repository's root) or the user's `~/.copilot/hooks/hookbox.json`.
 */
export function copilotDecidesIn(cwd: string, home: string = homedir()): boolean {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (hasCopilotEntries(copilotSetup.settingsPath({ kind: 'project', dir }))) return true;
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) break;
  }
  return hasCopilotEntries(copilotSetup.settingsPath({ kind: 'user', home }));
}

/**
 * An event Copilot sends through hookbox's Claude Code entries while its own
 * hookbox entries are set up: they decide it, so this copy is answered with
 * no opinion and each call is decided once, in Copilot's own format (which
 * can say more: a rewritten prompt, a replaced result of every tool).
 */
export function decidedByCopilotItself(data: Readonly<Record<string, unknown>>, cwd: string): boolean {
  return sentByCopilot(data) && copilotDecidesIn(cwd);
}
