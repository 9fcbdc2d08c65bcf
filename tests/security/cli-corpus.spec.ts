import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallReport, callHook } from '../../host/cli/commands/call.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { listCorpus, writeCorpusWasm } from '../helpers/wat.ts';

// `hookbox call --json` semantics for every corpus plugin on the pre-tool
// seam, through the command's own function (one shared runner keeps it fast;
// tests/unit/runner-cli.spec.ts runs the real bin as a child process).
const deny = (kind: string) => ({ decision: { action: 'deny', reason: expect.stringContaining(`(${kind})`) }, fault: kind });
const EXPECTED: Record<string, { decision: unknown; fault: string | null }> = {
  allow: { decision: { action: 'allow' }, fault: null },
  'alloc-bomb': deny('memory'),
  'deep-nesting': deny('decode'),
  deny: { decision: { action: 'deny', reason: 'corpus deny' }, fault: null },
  'echo-next': { decision: { action: 'allow', reason: expect.stringMatching(/^[0-9a-f]+$/) }, fault: null },
  'env-dump': { decision: { action: 'allow' }, fault: null },
  'error-set': deny('plugin-error'),
  // Granted nothing: closing its own stdio only edits its own fd table; no fd 3 to escape from.
  'fd-hijack': { decision: { action: 'allow' }, fault: null },
  flaky: deny('trap'),
  'garbage-output': deny('decode'),
  'imported-memory': deny('load'),
  'infinite-loop': { decision: { action: 'ask', reason: expect.stringContaining('(timeout)') }, fault: 'timeout' },
  // A rewrite, not a fault: `call` asks the one hook; the gates asked again on it are tests/security/bad-output.spec.ts's.
  'input-rewrite': { decision: { action: 'allow', arguments: { command: 'rm -rf /' } }, fault: null },
  'kernel-misuse': deny('trap'),
  'log-flood': { decision: { action: 'allow' }, fault: null },
  'memory-bomb': deny('memory'),
  'memory-bomb-capped': deny('memory'),
  'missing-export': deny('missing-export'),
  'missing-reason': deny('schema'),
  'no-memory-max': { decision: { action: 'allow' }, fault: null },
  'no-opinion': { decision: null, fault: null },
  'nonzero-return': deny('plugin-error'),
  'out-of-bounds': deny('trap'),
  'path-escape': { decision: { action: 'allow' }, fault: null },
  'oversized-output': deny('output-too-large'),
  'proc-exit': deny('plugin-error'),
  recursion: deny('trap'),
  'start-never-returns': deny('load'),
  trap: deny('trap'),
  'unknown-action': deny('schema'),
  'unknown-import': deny('load'),
  'var-counter': { decision: { action: 'deny', reason: 'count=1' }, fault: null },
  'var-flood': deny('memory'),
  'wasi-attempts': { decision: { action: 'deny', reason: 'wasi leaked: stdout,stderr,random' }, fault: null },
  'wrong-shape': deny('schema'),
};

let dir: string;
let payload: string;
let runner: HookRunner;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-cli-corpus-'));
  payload = path.join(dir, 'pre.json');
  await writeFile(payload, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }));
  runner = await HookRunner.start();
});
afterAll(async () => {
  await runner?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('hookbox call on every corpus plugin (tools/pre-execute)', () => {
  it.each(listCorpus())('%s', async (name) => {
    const file = await writeCorpusWasm(name, dir);
    // The runaways get 100 ms; the rest a deadline no loaded machine reaches
    // (filling 64 MiB took over 2 s with the suite and a mutation run side by side).
    const timeoutMs = name === 'infinite-loop' || name === 'start-never-returns' ? 100 : 20_000;
    const report: CallReport = await callHook(file, { seam: 'tools/pre-execute', payload, timeoutMs }, undefined, runner);
    // Exactly the three keys, JSON-serializable.
    expect(Object.keys(JSON.parse(JSON.stringify(report))).sort()).toEqual(['decision', 'durationMs', 'fault']);
    const expected = EXPECTED[name];
    // A new corpus file needs its row: there is no "anything goes" default.
    if (expected === undefined) expect.fail(`${name}.wat has no row in EXPECTED`);
    expect(report.decision).toEqual(expected.decision);
    expect(report.fault?.kind ?? null).toBe(expected.fault);
  });

  it('EXPECTED has a row for every corpus file and none for a file that is gone', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(listCorpus());
  });
});
