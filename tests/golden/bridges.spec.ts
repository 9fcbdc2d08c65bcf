import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOOL_PROTOCOLS, type ToolProtocol } from '../../host/bridges/index.ts';
import { type TestWorkspace, events, makeWorkspace, sequence, startSession } from '../helpers/session.ts';
import { OUTPUT_CASES } from './bridges-cases.ts';
import { GOLDEN_DIR, cannedHook, renderBridgeGolden } from './bridges-golden.ts';

interface GoldenRow {
  readonly name: string;
  readonly event: string;
  readonly outcome: string;
  readonly fault?: { kind: string; message: string };
  readonly applied: unknown;
}

function readGolden(protocol: ToolProtocol): { outputs: GoldenRow[]; composed: { name: string; decision: unknown; withoutPrompter?: unknown; ran: unknown[] }[] } {
  return JSON.parse(readFileSync(`${GOLDEN_DIR}${protocol}.json`, 'utf8'));
}

/** The hand-written `want` notation of a rendered row. */
function describeRow(row: GoldenRow): string {
  const applied = row.applied as { action?: string; additionalContext?: string } | null;
  const action = applied === null ? 'none' : (applied.action ?? (applied.additionalContext !== undefined ? 'context' : 'empty'));
  return row.fault === undefined ? action : `${action}/${row.fault.kind}`;
}

describe('bridge golden tables (tests/golden/bridges/*.json)', () => {
  it('are what the mapper produces today (change them only with `npm run golden:update`, then review the diff)', async () => {
    for (const [path, expected] of Object.entries(await renderBridgeGolden())) {
      expect(readFileSync(path, 'utf8'), `${relative(process.cwd(), path)} is stale: run npm run golden:update`).toBe(expected);
    }
  });

  it.each(TOOL_PROTOCOLS)('%s: every output row takes the decision written by hand in bridges-cases.ts', (protocol) => {
    const rows = readGolden(protocol).outputs;
    expect(rows).toHaveLength(OUTPUT_CASES.length);
    const mismatches = OUTPUT_CASES.flatMap((c, i) => {
      const want = protocol === 'codex' ? (c.codexWant ?? c.want) : c.want;
      const got = describeRow(rows[i] as GoldenRow);
      return got === want ? [] : [`${c.seam} "${c.name}": want ${want}, got ${got}`];
    });
    expect(mismatches).toEqual([]);
  });

  it('the faults the issue names say what was refused', () => {
    const rows = readGolden('claude-code').outputs;
    const fault = (name: string) => rows.find((row) => row.event === 'tools/pre-execute' && row.name === name)?.fault;
    expect(fault('updatedInput without the call (a wasm codec): schema fault naming the field, deny')).toEqual({
      kind: 'schema',
      message: expect.stringMatching(/^output\.hookSpecificOutput\.updatedInput: a Claude Code hook run as wasm cannot rewrite/),
    });
    expect(fault('flat permissionDecision: schema fault, deny')?.message).toMatch(/^output\.permissionDecision: only meaningful inside hookSpecificOutput/);
    expect(fault('malformed JSON: decode fault, deny')?.kind).toBe('decode');
  });

  it('deny beats ask beats allow across several hooks; an ask with no prompter is a deny', () => {
    const composed = readGolden('claude-code').composed;
    const byName = (name: string) => composed.find((c) => c.name === name);
    expect(byName('allow, ask, deny: deny')?.decision).toEqual({ action: 'deny', reason: 'c' });
    expect(byName('deny first: the rest never run')?.ran).toHaveLength(1);
    expect(byName('ask, allow: ask (then deny without a prompter)')).toMatchObject({
      decision: { action: 'ask', reason: 'check with a human' },
      withoutPrompter: { action: 'deny', reason: expect.stringContaining('no permission prompter attached') },
    });
  });
});

describe('a Claude Code Stop hook through the real loop', () => {
  let workspace: TestWorkspace;
  beforeEach(() => {
    workspace = makeWorkspace('hookbox-bridge-stop-');
  });
  afterEach(() => workspace.dispose());

  it('decision block continues the turn with the reason, until the loop guard; stop_hook_active tells the hook', async () => {
    const seen: unknown[] = [];
    const stop = cannedHook('claude-code', 'always-block', ['agent/turn-continuation'], (input) => {
      seen.push(input.stop_hook_active);
      return { exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason: 'not done yet' }), stderr: '' };
    });
    const session = await startSession(workspace, {
      hooks: [stop],
      maxContinuations: 2,
      script: { steps: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] },
    });
    try {
      const outcome = await session.prompt('go', 'cli');
      expect(outcome.reason).toBe('completed');
    } finally {
      await session.close();
    }
    expect(seen).toEqual([false, true, true]);
    const all = events(workspace);
    expect(sequence(all)).toEqual([
      'turn/start 1',
      'user/message 1: go',
      'assistant/message 1.1: one',
      'steering/message 1: not done yet',
      'assistant/message 1.2: two',
      'steering/message 1: not done yet',
      'assistant/message 1.3: three',
      'turn/end 1 completed steps=3',
    ]);
    expect(all.find((e) => e.type === 'turn/end')).toMatchObject({ message: 'continuation cap reached (2)' });
  });
});
