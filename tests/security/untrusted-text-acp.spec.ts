/**
 * In `hookbox acp`: hook text an editor shows (a
 * blocked prompt's reason, context, a denial, plugin error text, the ask's
 * reasons) reaches it made printable, and the permission request lists every
 * asking hook (finding 4). A real ACP client (the SDK, tests/golden/acp)
 * drives the real CLI as a child process with real wasm hooks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TranscriptEntry, hookTextFields, runAcpAgent } from '../golden/acp/harness.ts';
import { RENDERERS, render } from '../helpers/markdown.ts';
import { ALL_ATTACKS, ATTACKS, terminalControls, writeHostileTextWasm } from './hostile-text.ts';

const WARNING = 'reading secrets needs a human';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookbox-untrusted-acp-'));
  const deny = await writeHostileTextWasm(dir, 'hostile-deny', {
    pre_tool: { log: ALL_ATTACKS, decision: { action: 'deny', reason: ALL_ATTACKS } },
    prompt_submit: { log: ALL_ATTACKS, decision: { action: 'allow', additionalContext: ALL_ATTACKS } },
  });
  const failing = await writeHostileTextWasm(dir, 'hostile-error', { post_tool: { error: ALL_ATTACKS } });
  const early = await writeHostileTextWasm(dir, 'early', { pre_tool: { decision: { action: 'ask', reason: `${ATTACKS.fakePrompt}${ATTACKS.bidi}` } } });
  const guard = await writeHostileTextWasm(dir, 'guard', { pre_tool: { decision: { action: 'ask', reason: WARNING } } });
  await writeFile(join(dir, 'notes.txt'), 'hello\n');
  await writeFile(
    join(dir, 'script.json'),
    JSON.stringify({
      steps: [
        {
          toolCalls: [
            { id: 'c1', name: 'bash', arguments: { command: 'ls' } },
            { id: 'c2', name: 'list_dir', arguments: { path: '.' } },
            { id: 'c3', name: 'read_file', arguments: { path: 'notes.txt' } },
          ],
        },
        { text: 'done' },
      ],
    }),
  );
  await writeFile(
    join(dir, 'hookbox.config.json'),
    JSON.stringify({
      hooks: [
        { name: 'hostile-deny', wasm: deny, tools: ['bash'] },
        { name: 'hostile-error', wasm: failing, seams: ['tools/post-execute'], tools: ['list_dir'] },
        { name: 'early', wasm: early, tools: ['read_file'] },
        { name: 'guard', wasm: guard, tools: ['read_file'] },
      ],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every string the editor was sent, with where it was, except the model's own arguments (`rawInput`). */
function strings(value: unknown, path: string, out: { path: string; text: string }[]): void {
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((item, index) => strings(item, `${path}[${index}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (key !== 'rawInput') strings(item, `${path}.${key}`, out);
  }
}

describe('hookbox acp: hook text reaches the editor printable', () => {
  let transcript: TranscriptEntry[];
  let stderr: string;
  beforeAll(async () => {
    const run = await runAcpAgent(['--script', join(dir, 'script.json'), '--config', join(dir, 'hookbox.config.json')], dir, ['deny'], async (acp) => {
      await acp.initialize();
      const sessionId = await acp.newSession(dir);
      await acp.prompt(sessionId, 'look around');
    });
    expect(run.exitCode, run.stderr).toBe(0);
    transcript = run.transcript;
    stderr = run.stderr;
  }, 120_000);

  it('no string sent to the editor holds a control (other than newline), ESC, C1 or bidi character', () => {
    const sent: { path: string; text: string }[] = [];
    strings(transcript, 'transcript', sent);
    expect(sent.some(({ text }) => text.includes('HBXMARK'))).toBe(true);
    expect(sent.flatMap(({ path, text }) => terminalControls(text.replaceAll('\t', ' ')).map((found) => `${path}: ${found}`))).toEqual([]);
    expect(terminalControls(stderr)).toEqual([]);
  });

  it('the attacks show escaped in the context, the denial and the plugin error (as the editor renders them)', () => {
    const shown = hookTextFields(transcript).map(({ text }) => render(text, RENDERERS['markdown-it (html, linkify)']!).text);
    for (const escaped of ['\\x1b]0;HBXMARK title\\x07', '\\x1b[2K\\r', '\\u{202e}HBXMARK']) {
      expect(shown.filter((text) => text.includes(escaped)).length, escaped).toBeGreaterThanOrEqual(3);
    }
  });

  it('the permission request lists every asking hook with its own reason', () => {
    const requests = transcript.flatMap((entry) => ('permission' in entry ? [entry.permission] : []));
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.toolCall.title).toBe('Read notes.txt');
    const lines = (request.toolCall.content ?? []).map((item) => (item.type === 'content' && item.content.type === 'text' ? item.content.text : ''));
    expect(lines.map((line) => render(line, RENDERERS['markdown-it (html, linkify)']!).text)).toEqual([
      'hook "early" asks: \\n    bash {"command":"ls"} HBXMARK\\n    allow? [y/N] \\x1b[8m\\u{202e}HBXMARK kcolb\n',
      `hook "guard" asks: ${WARNING}\n`,
    ]);
  });
});
