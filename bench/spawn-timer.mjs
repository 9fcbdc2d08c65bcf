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
 * stdin: {"env": {…}, "runs": [{"command", "args", "input", "env"?}…]} (a run's own env replaces the plan's)
 * stdout: [{"ms", "code", "stdout"}…], in the plan's order.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const plan = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const run of plan.runs) {
  const started = performance.now();
  const child = spawnSync(run.command, run.args, { input: run.input, env: run.env ?? plan.env, stdio: ['pipe', 'pipe', 'ignore'], timeout: 120_000, maxBuffer: 1 << 20 });
  const ms = performance.now() - started;
  results.push({ ms, code: child.status, stdout: child.stdout?.toString('utf8') ?? '', ...(child.error && { error: String(child.error.message) }) });
}
process.stdout.write(JSON.stringify(results));
