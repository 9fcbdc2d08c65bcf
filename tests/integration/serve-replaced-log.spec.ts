/**
 * The session log records what the model received: a result the real
 * secret-redactor replaced is logged as the replacement (`hookEffect:
 * "replaced"`), with the original's length and SHA-256 and — only with the
 * operator's `log.keepReplacedOriginals` — its text; the report counts it.
 * Decided in-process exactly as the server decides (real wasm hook, real
 * files), for each agent's own PostToolUse event.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionLog } from '../../host/log/index.ts';
import { summarize } from '../../host/report/summarize.ts';
import { decideInProcess } from '../../host/serve/in-process.ts';
import { exampleManifest } from '../helpers/examples.ts';

const SECRET = 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n';
const SHA = createHash('sha256').update(SECRET).digest('hex');

function postEvent(agent: string, cwd: string, session: string): Record<string, unknown> {
  const common = { session_id: session, transcript_path: null, cwd };
  if (agent === 'codex') {
    return { ...common, turn_id: 't1', model: 'gpt-5.5', permission_mode: 'default', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat users.txt' }, tool_response: SECRET, tool_use_id: 'c1' };
  }
  if (agent === 'gemini') {
    return { ...common, timestamp: '2026-12-01T00:00:00Z', hook_event_name: 'AfterTool', tool_name: 'read_file', tool_input: { file_path: join(cwd, 'users.txt') }, tool_response: { llmContent: SECRET, returnDisplay: '' } };
  }
  return { ...common, permission_mode: 'default', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat users.txt' }, tool_response: { stdout: SECRET, stderr: '', interrupted: false, isImage: false }, tool_use_id: 'toolu_1' };
}

describe.each(['claude-code', 'codex', 'gemini'])('%s: a redacted result in the session log', (agent) => {
  it.each([false, true])('keepReplacedOriginals %s', { timeout: 120_000 }, async (keep) => {
    const dir = mkdtempSync(join(tmpdir(), 'hookbox-replaced-'));
    const config = join(dir, 'hookbox.config.json');
    writeFileSync(config, JSON.stringify({ hooks: [{ name: 'secret-redactor', manifest: exampleManifest('secret-redactor') }], ...(keep && { log: { keepReplacedOriginals: true } }) }));
    const session = `s-${agent}-${String(keep)}`;
    const answer = await decideInProcess(agent, config, JSON.stringify(postEvent(agent, dir, session)));
    expect(answer.exitCode, answer.stderr).toBe(0);
    expect(answer.stdout).toContain('[REDACTED:github-token]');
    expect(answer.stdout).not.toContain('ghp_0123456789abcdefghij');
    const file = join(dir, '.hookbox', 'sessions', `${agent}-${session}.jsonl`);
    const result = readSessionLog(file).events.find((event) => event.type === 'tool/result');
    expect(result).toMatchObject({ hookEffect: 'replaced', content: expect.stringContaining('[REDACTED:github-token]'), original: { length: SECRET.length, sha256: SHA } });
    if (keep) expect(result).toMatchObject({ original: { content: SECRET } });
    else expect(readFileSync(file, 'utf8')).not.toContain('ghp_0123456789abcdefghij');
    expect(summarize([{ file, events: readSessionLog(file).events, tornBytes: 0 }]).totals.replacedToolResults).toBe(1);
  });
});
