/**
 * The clients section's stopwatch, run as its own small Node process: it
 * spawns each command of a plan in turn (spawnSync, the event on stdin) and
 * prints each one's wall time from spawn to exit. Spawning from here and not
 * from the bench process keeps the bench's own heap out of every row: a fork
 * copies the parent's page tables, which in the bench process (tsx, the
 * runner, its modules) added several milliseconds to each spawn — to the
 * native client's 3 ms as much as to `node -e 0`'s 40. Every row of the
 * section is timed here, so the ratios stay side by side.
 *
 * A run may instead `ask` the server itself: one event framed as the clients
 * frame it (host/wire.cjs), sent over the unix socket from this process, timed
 * to the answer's end — what the server alone adds to every client's event.
 *
 * stdin: {"env": {…}, "runs": [{"command", "args", "input", "env"?} | {"ask": {"socket", "config", "body"}}…]}
 *        (a run's own env replaces the plan's)
 * stdout: [{"ms", "code", "stdout"}…], in the plan's order (an ask: code 0 and the answer's body).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';

const wire = createRequire(import.meta.url)('../host/wire.cjs');

/** One framed event over the socket: resolves with the time to the server's close and the answer's body. */
function ask({ socket, config, body }) {
  return new Promise((resolve) => {
    const bytes = Buffer.from(body);
    const started = performance.now();
    const conn = connect(socket, () => {
      conn.write(
        `POST /hooks/claude-code HTTP/1.1\r\nhost: hookbox\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n` +
          `${wire.FRAME_HEADER}: ${wire.FRAME_LINE}\r\n${wire.NONCE_HEADER}: ${randomBytes(16).toString('hex')}\r\n${wire.CONFIG_HEADER}: ${config}\r\nconnection: close\r\n\r\n`,
      );
      // No half-close: the server answers, then closes (`connection: close`), as with the clients.
      conn.write(bytes);
    });
    let answer = '';
    conn.on('data', (chunk) => (answer += chunk.toString('utf8')));
    conn.on('error', (error) => resolve({ ms: performance.now() - started, code: null, stdout: '', error: String(error.message) }));
    conn.on('close', () => {
      const ms = performance.now() - started;
      const at = answer.indexOf('\r\n\r\n');
      resolve({ ms, code: 0, stdout: at < 0 ? answer : answer.slice(at + 4) });
    });
  });
}

const plan = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const run of plan.runs) {
  if (run.ask !== undefined) {
    results.push(await ask(run.ask));
    continue;
  }
  const started = performance.now();
  const child = spawnSync(run.command, run.args, { input: run.input, env: run.env ?? plan.env, stdio: ['pipe', 'pipe', 'ignore'], timeout: 120_000, maxBuffer: 1 << 20 });
  const ms = performance.now() - started;
  results.push({ ms, code: child.status, stdout: child.stdout?.toString('utf8') ?? '', ...(child.error && { error: String(child.error.message) }) });
}
process.stdout.write(JSON.stringify(results));
