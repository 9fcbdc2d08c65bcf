import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DoctorFinding, SetupScope } from '../agent-bridge.ts';
import { hooksObject, isHookboxCommand } from '../hook-groups.ts';

/** The folder of Copilot hook files for a scope (Copilot reads every `*.json` in it, measured with 1.0.102). */
export function copilotHooksFolder(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.github', 'hooks') : path.join(scope.home, '.copilot', 'hooks');
}

/** The name of the one file `hookbox setup copilot` writes in that folder. */
export const COPILOT_HOOKBOX_FILE = 'hookbox.json';

/** A Copilot handler running a command shaped like hookbox's (setup.ts's test, kept here so setup can import this file). */
function looksLikeHookbox(handler: unknown): boolean {
  if (typeof handler !== 'object' || handler === null) return false;
  const { type, bash } = handler as Record<string, unknown>;
  return type === 'command' && isHookboxCommand(bash, 'copilot');
}

/**
 * The command lines `setup` writes start with the client run by its
 * interpreter (`sh <…/hookbox-hook.sh> 'copilot' …`, `node <…/hookbox-hook.cjs> …`,
 * setup-paths.ts), the native client as itself (`<…/native/linux-x64/hookbox-hook> 'copilot' …`) or, written by hand, `hookbox hook copilot`; a look-alike
 * (`: hookbox-hook.sh copilot`, `echo … hookbox-hook.sh copilot`) does not.
 */
const SETUP_COMMAND =
  /^(?:(?:sh|node) (?:"[^"]*\/hookbox-hook\.(?:sh|cjs)"|'[^']*\/hookbox-hook\.(?:sh|cjs)'|[^\s'"]*hookbox-hook\.(?:sh|cjs)) '?copilot'?|(?:"[^"]*\/native\/[\w-]+\/hookbox-hook"|'[^']*\/native\/[\w-]+\/hookbox-hook'|[^\s'"]*\/native\/[\w-]+\/hookbox-hook) '?copilot'?|(?:\S*\/)?hookbox(?:\.mjs)? hook copilot)(?: |$)/;

/** The look-alike commands of a hook file: all of them, or (`ours`) those not in the shape setup writes. */
function lookalikes(file: string, ours: boolean): number {
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return 0;
    const handlers = Object.values(hooksObject(settings as Record<string, unknown>)).flatMap((entries) => (Array.isArray(entries) ? entries : []));
    return handlers.filter((handler) => looksLikeHookbox(handler) && !(ours && SETUP_COMMAND.test((handler as { bash: string }).bash))).length;
  } catch {
    return 0;
  }
}

/**
 * Copilot hook files in the scope's folder that hold a command shaped like
 * hookbox's but that `setup` did not write (in any file but `hookbox.json`,
 * or there not in the shape setup writes), and links. hookbox decides every event whatever
 * such a file holds — its shape proves nothing — but a file the model or
 * another user planted there is worth a look: Copilot runs its commands.
 */
export function foreignCopilotHookFiles(scope: SetupScope): string[] {
  const folder = copilotHooksFolder(scope);
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return names
    .map((name) => path.join(folder, name))
    .filter((file) => {
      const stat = lstatSync(file, { throwIfNoEntry: false });
      if (stat === undefined) return false;
      if (stat.isSymbolicLink()) return true;
      return lookalikes(file, path.basename(file) === COPILOT_HOOKBOX_FILE && stat.isFile()) > 0;
    });
}

/** `hookbox doctor`'s finding for them (copilot and claude-code, whose setup Copilot also runs). */
export function foreignCopilotHookFindings(scope: SetupScope): DoctorFinding[] {
  return foreignCopilotHookFiles(scope).map((file) => ({
    ok: false,
    what: `${file}: a Copilot hook file hookbox did not write holds a command that looks like hookbox's (or is a link); Copilot CLI runs it on every event`,
    fix: `read it; if you did not put it there, delete it (hookbox's own Copilot entries are only ever in ${path.join(copilotHooksFolder(scope), COPILOT_HOOKBOX_FILE)})`,
  }));
}
