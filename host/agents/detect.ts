import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { SetupScope } from './agent-bridge.ts';
import { AGENT_BRIDGES, AGENT_NAMES, type AgentName } from './registry.ts';

/** An agent found in use, and what showed it. */
export interface DetectedAgent {
  readonly name: AgentName;
  /** `.claude/ in /work/app`, `codex on PATH (/usr/local/bin/codex)`. */
  readonly why: string;
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The first executable file named `command` in the folders of `pathVariable`. */
export function onPath(command: string, pathVariable: string): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue; // a relative PATH entry depends on where hookbox runs: not evidence
    const file = path.join(dir, command);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there, or not executable
    }
  }
  return undefined;
}

/**
 * The agents a project (or, for the user's settings, the user) uses, in
 * registry order: one whose folder is in the project (`.claude/`), else
 * whose command is on `PATH`. A folder is the stronger evidence and is the
 * reason given when both hold.
 */
export function detectAgents(scope: SetupScope, pathVariable: string = process.env.PATH ?? ''): DetectedAgent[] {
  const base = scope.kind === 'project' ? scope.dir : scope.home;
  const found: DetectedAgent[] = [];
  for (const name of AGENT_NAMES) {
    const { folders, commands } = AGENT_BRIDGES[name].setup.detect;
    const folder = folders.find((candidate) => isFolder(path.join(base, candidate)));
    if (folder !== undefined) {
      found.push({ name, why: `${folder}/ in ${base}` });
      continue;
    }
    for (const command of commands) {
      const file = onPath(command, pathVariable);
      if (file !== undefined) {
        found.push({ name, why: `${command} on PATH (${file})` });
        break;
      }
    }
  }
  return found;
}

/** What detection looks for, as one line for an error that found nothing. */
export function detectionLooksFor(): string {
  const folders = AGENT_NAMES.flatMap((name) => AGENT_BRIDGES[name].setup.detect.folders.map((folder) => `${folder}/`));
  const commands = AGENT_NAMES.flatMap((name) => AGENT_BRIDGES[name].setup.detect.commands);
  return `looked for the folders ${folders.join(', ')} and for the commands ${commands.join(', ')} on PATH`;
}
