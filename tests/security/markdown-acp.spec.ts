/**
 * A hook granted no network must not make an editor fetch or link a URL.
 * Hostile hooks (real wasm plugins, `hostile-text.ts`) answer every seam
 * with Markdown attacks (`hostile-markdown.ts`: images, links, autolinks,
 * reference definitions, raw `<img>`/`<a>`, entities, nested and
 * escaped-bracket tricks, fence-closing attempts) as their reasons, contexts,
 * rewrites, replacements and continuations; a real ACP client (the SDK)
 * drives the real `hookbox acp` child process. Every hook-originated field the
 * client receives, rendered with a real CommonMark renderer (raw HTML and
 * linkify on), holds no element but paragraphs and breaks — no `<img>`, no
 * `<a href>`, no HTML from the hook — and shows the hook's words, URLs included.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printable, printableLines } from '../../host/text/index.ts';
import { type HookTextField, type TranscriptEntry, hookTextFields, runAcpAgent } from '../golden/acp/harness.ts';
import { RENDERERS, notInert, render, words } from '../helpers/markdown.ts';
import { ALL_MARKDOWN_ATTACKS, MARKDOWN_ATTACKS, SHORT_MARKDOWN_ATTACK } from './hostile-markdown.ts';
import { writeHostileTextWasm } from './hostile-text.ts';

const ALL = ALL_MARKDOWN_ATTACKS;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookbox-markdown-acp-'));
  const everywhere = await writeHostileTextWasm(dir, 'md-everywhere', {
    session_start: { decision: { additionalContext: ALL } },
    prompt_submit: { decision: { action: 'allow', content: ALL, additionalContext: ALL } },
    turn_continuation: { decision: { action: 'continue', reason: ALL } },
  });
  const deny = await writeHostileTextWasm(dir, 'md-deny', { pre_tool: { decision: { action: 'deny', reason: ALL } } });
  const ask = await writeHostileTextWasm(dir, 'md-ask', { pre_tool: { decision: { action: 'ask', reason: SHORT_MARKDOWN_ATTACK } } });
  const replace = await writeHostileTextWasm(dir, 'md-replace', { post_tool: { decision: { action: 'accept', content: ALL, additionalContext: ALL } } });
  const block = await writeHostileTextWasm(dir, 'md-block', { post_tool: { decision: { action: 'block', reason: ALL } } });
  const blockPrompt = await writeHostileTextWasm(dir, 'md-block-prompt', { prompt_submit: { decision: { action: 'block', reason: ALL } } });
  await writeFile(join(dir, 'notes.txt'), 'hello\n');
  await writeFile(
    join(dir, 'script.json'),
    JSON.stringify({
      steps: [
        {
          toolCalls: [
            { id: 'c1', name: 'bash', arguments: { command: 'ls' } },
            { id: 'c2', name: 'read_file', arguments: { path: 'notes.txt' } },
            { id: 'c3', name: 'list_dir', arguments: { path: '.' } },
            { id: 'c4', name: 'write_file', arguments: { path: 'out.txt', content: 'x\n' } },
          ],
        },
        { text: 'done' },
        { text: 'still done' },
      ],
    }),
  );
  await writeFile(
    join(dir, 'hookbox.config.json'),
    JSON.stringify({
      hooks: [
        { name: 'md-everywhere', wasm: everywhere },
        { name: 'md-deny', wasm: deny, tools: ['bash'] },
        { name: 'md-ask', wasm: ask, tools: ['read_file'] },
        { name: 'md-replace', wasm: replace, tools: ['list_dir'] },
        { name: 'md-block', wasm: block, tools: ['write_file'] },
      ],
    }),
  );
  await writeFile(join(dir, 'block.config.json'), JSON.stringify({ hooks: [{ name: 'md-block-prompt', wasm: blockPrompt }] }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The words a person reads of one field, as the most permissive renderer shows it. */
function shown(field: HookTextField): string {
  return words(render(field.text, RENDERERS['markdown-it (html, linkify)']!).text);
}

/** The words of the whole attack text, as the printable sanitiser shows it (multi-line within hookbox acp's caps, or one line). */
const ALL_WORDS = words(printableLines(ALL, { maxLength: 4000, maxLines: 1000 }).join('\n'));
const SHORT_WORDS = words(printable(SHORT_MARKDOWN_ATTACK));

describe('hookbox acp: Markdown from hooks reaches the editor inert', () => {
  let fields: HookTextField[];
  let blockedPrompt: TranscriptEntry[] = [];
  beforeAll(async () => {
    const args = (config: string): string[] => ['--script', join(dir, 'script.json'), '--config', join(dir, config), '--max-continuations', '1'];
    let transcript: TranscriptEntry[] = [];
    const run = await runAcpAgent(args('hookbox.config.json'), dir, ['deny'], async (acp) => {
      await acp.initialize();
      const sessionId = await acp.newSession(dir);
      await acp.prompt(sessionId, 'look around');
    });
    expect(run.exitCode, run.stderr).toBe(0);
    transcript = run.transcript;
    const blocked = await runAcpAgent(args('block.config.json'), dir, [], async (acp) => {
      await acp.initialize();
      const sessionId = await acp.newSession(dir);
      await acp.prompt(sessionId, 'deploy');
    });
    expect(blocked.exitCode, blocked.stderr).toBe(0);
    blockedPrompt = blocked.transcript;
    fields = [...hookTextFields(transcript), ...hookTextFields(blocked.transcript)];
  }, 180_000);

  it('covers every place hookbox sends hook text to an editor', () => {
    const texts = fields.map(shown);
    const covered = (prefix: string): boolean => texts.some((text) => text.startsWith(prefix));
    for (const prefix of [
      'Context from a session-start hook:',
      'Context from a prompt-submit hook:',
      'A prompt-submit hook rewrote the prompt; the model sees:',
      'Tool call denied by a hook:',
      'hook "md-ask" asks:',
      'Tool result withheld by a hook:',
      'Context from a post-tool hook:',
      'The turn continues:',
      'Prompt blocked by a hook:',
    ]) {
      expect(covered(prefix), `${prefix}\n${texts.map((text) => text.slice(0, 80)).join('\n')}`).toBe(true);
    }
    // The replaced result is the hook's text alone, with no prefix of the host's.
    expect(texts.filter((text) => text === ALL_WORDS)).not.toEqual([]);
  });

  it('no field renders as an image, a link or any HTML element: paragraphs and breaks only', () => {
    expect(fields.length).toBeGreaterThanOrEqual(10);
    expect(fields.flatMap(({ where, text }) => notInert(text).map((problem) => `${where}: ${problem}`))).toEqual([]);
    for (const field of fields) {
      const html = render(field.text, RENDERERS['markdown-it (html, linkify)']!).html;
      expect(html, field.where).not.toMatch(/<(?:img|a)[\s>]/i);
    }
  });

  it('_meta carries the hook\'s text printable, not Markdown-escaped: programs read it, no editor renders it', () => {
    const meta = blockedPrompt.flatMap((entry) => {
      if ('update' in entry && entry.update.sessionUpdate === 'agent_message_chunk') return [entry.update._meta?.hookbox];
      if ('result' in entry) return [(entry.result as { _meta?: Record<string, unknown> } | null)?._meta?.hookbox];
      return [];
    });
    const printed = printableLines(ALL, { maxLength: 4000, maxLines: 1000 }).join('\n');
    expect(meta).toContainEqual(expect.objectContaining({ event: 'prompt/blocked', reason: printed }));
    expect(meta).toContainEqual(expect.objectContaining({ reason: 'rejected', message: printed }));
  });

  it('every field shows the hook\'s words, URLs readable as text', () => {
    // The ask's reason (a one-line field) is the short attack, in the request and in the denial it led to.
    const asked = fields.filter((field) => shown(field).includes(SHORT_WORDS)).map(({ where }) => where);
    expect(asked).toHaveLength(2);
    for (const field of fields) {
      const text = shown(field);
      if (!asked.includes(field.where)) expect(text.includes(ALL_WORDS), `${field.where}: ${text.slice(0, 200)}`).toBe(true);
      expect(text, field.where).toContain(MARKDOWN_ATTACKS.image);
    }
  });
});
