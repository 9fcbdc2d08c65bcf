import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SessionEventSchema, readSessionLog } from '../../host/log/index.ts';
import { Session } from '../../host/loop/index.ts';
import { ScriptedProvider } from '../../host/providers/scripted.ts';
import { makeWorkspace } from '../helpers/session.ts';

const CHILD = fileURLToPath(new URL('../helpers/crash-child.ts', import.meta.url));

/** Starts the child, waits until it is writing, kills it with SIGKILL after `delayMs`. */
function runAndKill(logPath: string, cwd: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, logPath, cwd], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited on its own: ${stderr}`)),
    );
  });
}

describe('crash safety', () => {
  it('a session killed with SIGKILL at random points leaves a readable log of whole events', async () => {
    const runs = 12;
    for (let run = 0; run < runs; run += 1) {
      const workspace = makeWorkspace('hookbox-crash-');
      try {
        await runAndKill(workspace.logPath, workspace.dir, Math.floor(Math.random() * 150));
        const read = readSessionLog(workspace.logPath);
        expect(read.events.length).toBeGreaterThan(0);
        // Every whole line is a valid event; at most the last line is torn.
        const text = readFileSync(workspace.logPath, 'utf8');
        const lines = text.split('\n');
        const last = lines.pop();
        for (const line of lines) expect(SessionEventSchema.safeParse(JSON.parse(line)).success).toBe(true);
        expect(last === '' || read.tornBytes === Buffer.byteLength(last ?? '')).toBe(true);

        // The crashed log resumes and takes new whole events after the repair.
        const resumed = await Session.resume({
          cwd: workspace.dir,
          logPath: workspace.logPath,
          provider: new ScriptedProvider({ steps: [{ text: 'back' }] }),
        });
        try {
          expect((await resumed.prompt('after the crash')).reason).toBe('completed');
        } finally {
          await resumed.close();
        }
        const after = readSessionLog(workspace.logPath);
        expect(after.tornBytes).toBe(0);
        expect(after.events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'completed' });
      } finally {
        workspace.dispose();
      }
    }
  }, 120_000);
});
