/**
 * Polling with a deadline, for tests that wait on something they cannot get
 * an event for (a file another process writes, text a prompt prints): the
 * wait ends as soon as the condition holds, however loaded the machine, and
 * a condition that never holds fails with what was awaited instead of
 * hanging until the test's own timeout.
 */
export async function waitFor(condition: () => boolean, what: string, options: { timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() >= deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 10));
  }
}
