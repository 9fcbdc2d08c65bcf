import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool, listDirTool, readFileTool, writeFileTool } from '../../host/tools/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace();
});
afterEach(() => workspace.dispose());
/**
 * Whether `pid` no longer exists (`kill(pid, 0)` fails with ESRCH), waiting
 * up to `waitMs` for the reaper: a killed process whose parent died is a
 * zombie until init collects it, and a zombie still answers signal 0.
 */
async function gone(pid: number, waitMs = 5_000): Promise<boolean> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
      throw error;
    }
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const context = () => ({ cwd: workspace.dir, signal: new AbortController().signal });

describe('bash tool', () => {
  it('runs in the working directory and reports the exit code', async () => {
    const result = await bashTool().run({ command: 'pwd; echo oops >&2; exit 3' }, context());
    expect(result).toEqual({ content: `${workspace.dir}\noops\nexit code: 3`, isError: true });
  });

  it('kills the whole process group at the timeout', async () => {
    // A grandchild in the group, detached from the output pipes so that only
    // the group kill (not the pipes closing) can end it; it prints its pid.
    const command = 'sleep 300 </dev/null >/dev/null 2>&1 & echo "grandchild $!"; sleep 300';
    const result = await bashTool().run({ command, timeoutMs: 200 }, context());
    const pid = Number(/^grandchild (\d+)\n/.exec(result.content)?.[1]);
    try {
      expect(pid).toBeGreaterThan(0);
      expect(result.isError).toBe(true);
      expect(result.content).toBe(`grandchild ${pid}\ntimed out after 200 ms\nexit code: 124`);
      expect(await gone(pid)).toBe(true);
    } finally {
      if (pid > 0 && !(await gone(pid, 0))) process.kill(pid, 'SIGKILL');
    }
  });

  it('caps its output and says how much was dropped', async () => {
    const result = await bashTool({ maxOutputBytes: 100 }).run({ command: 'head -c 1000 /dev/zero | tr "\\0" a' }, context());
    expect(result.content).toBe(`${'a'.repeat(100)}\n[900 bytes of output dropped]\nexit code: 0`);
    expect(result.isError).toBe(false);
  });
});

describe('file tools', () => {
  it('write_file, read_file and list_dir work on real files relative to the working directory', async () => {
    expect(await writeFileTool.run({ path: 'src/a.txt', content: 'hello' }, context())).toEqual({
      content: 'wrote 5 bytes to src/a.txt',
      isError: false,
    });
    expect(readFileSync(join(workspace.dir, 'src/a.txt'), 'utf8')).toBe('hello');
    expect(await readFileTool.run({ path: 'src/a.txt' }, context())).toEqual({ content: 'hello', isError: false });
    expect(await listDirTool.run({ path: '.' }, context())).toEqual({ content: 'src/', isError: false });
  });

  it('read_file on a directory is an error result; a missing file throws (the registry makes it a result)', async () => {
    await writeFileTool.run({ path: 'd/x', content: '' }, context());
    expect(await readFileTool.run({ path: 'd' }, context())).toEqual({ content: 'd is not a file', isError: true });
    await expect(readFileTool.run({ path: 'missing.txt' }, context())).rejects.toThrow(/ENOENT/);
  });
});
