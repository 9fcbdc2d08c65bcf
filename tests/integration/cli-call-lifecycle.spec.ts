/**
 * `hookbox call --seam <seam>` runs a built hook on each lifecycle seam of
 * issue #51, through the real bin, the sandbox and the seam's fault policy.
 * The hook is built here from TypeScript with the PDK's handlers and helpers.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInto, tempDir, writeHookSource } from '../pdk/support.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

const SOURCE = `import { allow, block, continueTurn, defineHook, deny } from PDK;
export default defineHook({
  permissionRequest: (p) => (String(p.arguments.command ?? '').startsWith('rm') ? deny('no rm, whoever asks') : allow({ reason: 'harmless' })),
  subagentStart: (p) => ({ additionalContext: 'stay in src/, ' + p.agentType }),
  subagentStop: (p) => (p.continuations === 0 ? continueTurn('check the tests folder too') : undefined),
  notification: (p, ctx) => {
    ctx.log.info('notified: ' + p.kind);
    return {};
  },
  preCompact: (p) => (p.trigger === 'auto' ? block('not before the release') : allow({ additionalContext: 'keep the test plan' })),
  sessionEnd: (p) => {
    if (p.reason === 'error') throw new Error('cleanup failed');
  },
});
`;

let manifest: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await tempDir();
  cleanup = temp.cleanup;
  const built = await buildInto(temp.dir, await writeHookSource(temp.dir, 'lifecycle', SOURCE), 'lifecycle');
  if (built.manifestPath === undefined) throw new Error('the lifecycle hook built without a manifest');
  manifest = built.manifestPath;
}, 240_000);

afterAll(async () => cleanup?.());

function call(seam: string, payload: unknown): { status: number | null; report: { decision: unknown; fault: { kind: string; message: string } | null }; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, 'call', manifest, '--seam', seam, '--payload', '-', '--json'], {
    encoding: 'utf8',
    input: JSON.stringify(payload),
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 90_000,
  });
  return { status: result.status, report: JSON.parse(result.stdout || 'null'), stderr: result.stderr };
}

const bash = (command: string) => ({ toolCallId: 'c1', toolName: 'bash', arguments: { command } });

describe('hookbox call on the lifecycle seams', () => {
  it.each([
    ['tools/permission-request', bash('rm -rf build'), { action: 'deny', reason: 'no rm, whoever asks' }],
    ['tools/permission-request', bash('ls'), { action: 'allow', reason: 'harmless' }],
    ['agent/subagent-start', { agentType: 'Explore', agentId: 'a1' }, { additionalContext: 'stay in src/, Explore' }],
    ['agent/subagent-stop', { continuations: 0, agentType: 'Explore' }, { action: 'continue', reason: 'check the tests folder too' }],
    ['agent/subagent-stop', { continuations: 1 }, null], // no opinion: the seam's default (stop) stands
    ['agent/notification', { kind: 'idle', message: 'waiting for input' }, {}],
    ['agent/pre-compact', { trigger: 'auto' }, { action: 'block', reason: 'not before the release' }],
    ['agent/pre-compact', { trigger: 'manual', instructions: 'focus on the API' }, { action: 'allow', additionalContext: 'keep the test plan' }],
    ['agent/session-end', { reason: 'exit' }, {}],
  ])('%s on %j → %j', (seam, payload, decision) => {
    const { status, report, stderr } = call(seam, payload);
    expect(report, stderr).toMatchObject({ decision, fault: null });
    expect(status).toBe(0);
  });

  it('a session-end hook that throws: a plugin-error fault, and the seam takes no decision (the session closes anyway)', () => {
    const { status, report } = call('agent/session-end', { reason: 'error' });
    expect(report).toMatchObject({ decision: null, fault: { kind: 'plugin-error', message: expect.stringContaining('cleanup failed') } });
    expect(status).not.toBe(0);
  });

  it('a payload that is not the seam\'s is refused, naming the field', () => {
    const { status, stderr } = call('agent/notification', { kind: 'shout', message: 'x' });
    expect(status).not.toBe(0);
    expect(stderr).toContain('not a agent/notification payload');
    expect(stderr).toContain('kind');
  });
});
