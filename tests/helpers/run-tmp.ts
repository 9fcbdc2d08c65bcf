/**
 * Temp folders of a test run. `tests/global-setup.ts` points `TMPDIR` at a
 * folder of its own for the run (so every `mkdtemp` of a suite, and of the
 * agents and CLIs it starts, lands there) and removes it when the run ends:
 * a run leaves nothing behind in the machine's temp dir (it was 1.2 GB a
 * run, mostly real agents' workspaces). Caches that should outlive a run —
 * agent installs, Copilot's unpacked self, the npm cache agents install
 * their plugin packages from — go to the machine's temp dir instead.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set by the global setup: the machine's temp dir, before `TMPDIR` was pointed at the run's. */
export const MACHINE_TMP_ENV = 'HOOKBOX_MACHINE_TMPDIR';

/** A folder in the machine's temp dir (`tmpdir()` as the run started) that every test run shares (created by whoever uses it). */
export function sharedCacheDir(name: string): string {
  return join(process.env[MACHINE_TMP_ENV] ?? tmpdir(), name);
}
