/**
 * The real Cline CLI (`cline` 3.0.65) against a mock chat-completions model:
 * its provider set up by `cline auth` in the test's own Cline folder, a
 * headless `cline --json "<prompt>"` run, and the hub daemon Cline starts
 * in the background for a run ended afterwards (found by the run's own
 * Cline folder in its environment, so only daemons this test started).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CHAT_MOCK_MODEL } from './mock-model/openai-chat.ts';
import { type AgentRun, runAsync } from './real-agents.ts';

/** A free loopback port, for the hub daemon of one run (Cline's default, 25463, would be shared by every run on the machine). */
function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolvePromise(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The environment of every Cline process of a test: its own home and Cline folder, nothing inherited. */
function clineEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { PATH, LANG, TMPDIR } = process.env;
  return { PATH, LANG, TMPDIR, HOME: home, CLINE_DIR: join(home, '.cline'), CLINE_NO_AUTO_UPDATE: '1', ...extra };
}

/** `cline auth`: the OpenAI-compatible provider at the mock (`<url>/v1`), its one model. */
export async function authCline(bin: string, home: string, cwd: string, mockUrl: string): Promise<AgentRun> {
  return runAsync(bin, ['auth', '-p', 'openai', '-k', 'sk-hookbox-test', '-m', CHAT_MOCK_MODEL, '-b', `${mockUrl}/v1`], { cwd, env: clineEnv(home), timeoutMs: 120_000 });
}

/** Ends the hub daemons whose environment names this home's Cline folder (each by its pid). */
function endHubDaemons(home: string): void {
  const marker = `CLINE_DIR=${join(home, '.cline')}\0`;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--cline-hub-daemon')) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

/** A headless `cline --json "<prompt>"` in `cwd` (act mode, tools auto-approved: Cline's default), its hub daemon ended after. */
export async function runCline(bin: string, home: string, cwd: string, prompt: string): Promise<AgentRun> {
  const port = await freePort();
  try {
    return await runAsync(bin, ['--json', prompt], { cwd, env: clineEnv(home, { CLINE_HUB_PORT: String(port) }), timeoutMs: 300_000 });
  } finally {
    endHubDaemons(home);
  }
}
