import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionEvent } from '../../host/log/index.ts';
import { type TestWorkspace, events, makeWorkspace } from './session.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

/** A temp project with real hook scripts, imported by the real importer and run by the real CLI. */
export interface ImportProject {
  readonly workspace: TestWorkspace;
  readonly dir: string;
  /** Writes a file under the project (JSON for objects), creating folders; `executable` for scripts. */
  write(name: string, content: unknown, executable?: boolean): string;
  read(name: string): string;
  /** Runs `hookbox …` in the project. */
  hookbox(args: readonly string[], env?: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string };
  /** `hookbox run --config hookbox.config.json --script <steps> …prompts` with the session log in the project. */
  run(steps: readonly unknown[], prompts: readonly string[], extra?: readonly string[]): { status: number | null; stdout: string; stderr: string };
  /** The session log's events. */
  events(): SessionEvent[];
  dispose(): void;
}

export function importProject(prefix: string): ImportProject {
  const workspace = makeWorkspace(prefix);
  const dir = workspace.dir;
  const project: ImportProject = {
    workspace,
    dir,
    write(name, content, executable = false) {
      const file = join(dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      if (executable) chmodSync(file, 0o755);
      return file;
    },
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    hookbox(args, env = {}) {
      const result = spawnSync(process.execPath, [BIN, ...args], {
        cwd: dir,
        encoding: 'utf8',
        input: '',
        env: { ...process.env, NO_COLOR: '1', ...env },
        timeout: 170_000,
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    run(steps, prompts, extra = []) {
      const script = project.write('script.json', { steps });
      return project.hookbox(['run', '--config', 'hookbox.config.json', '--script', script, '--log', workspace.logPath, '--cwd', dir, ...extra, ...prompts]);
    },
    events: () => events(workspace),
    dispose: () => workspace.dispose(),
  };
  return project;
}

/** The `tool/result` contents of a session, by tool call id. */
export function toolResults(all: readonly SessionEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const event of all) if (event.type === 'tool/result') out[event.toolCallId] = `${event.isError ? 'error: ' : ''}${event.content}`;
  return out;
}
