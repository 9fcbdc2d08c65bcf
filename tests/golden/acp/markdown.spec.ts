/**
 * Every hook-originated field of the golden ACP transcripts (what a real ACP
 * client received from `hookbox acp`, see acp.spec.ts) rendered with a real
 * CommonMark renderer: nothing but paragraphs and line breaks, and its text
 * is the hook's words. The goldens are read as stored, so this holds for
 * exactly what the golden suite compares against.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RENDERERS, notInert, render, words } from '../../helpers/markdown.ts';
import { type TranscriptEntry, hookTextFields } from './harness.ts';

const DIR = fileURLToPath(new URL('./transcripts/', import.meta.url));
const GOLDENS = readdirSync(DIR).filter((name) => name.endsWith('.json'));

function transcriptOf(name: string): TranscriptEntry[] {
  return (JSON.parse(readFileSync(`${DIR}${name}`, 'utf8')) as { transcript: TranscriptEntry[] }).transcript;
}

/** Words each golden's hook text must show, rendered, as the hooks wrote them. */
const SHOWN: Readonly<Record<string, string>> = {
  'blocked-prompt.json': 'Prompt blocked by a hook: prompt-guard: the prompt contains a secret',
  'denied-tool.json': 'Tool call denied by a hook: guard-bash: recursive-delete',
  'ask-allow-deny.json': 'hook "guard-bash" asks:',
  'forced-continuation.json': 'test-gate: the last test run in this turn failed',
  'resumed-session.json': 'Small commits. Run the tests before you push.',
};

/** The host's own words around hook text (a first line, a prefix, the ask's frame): written by hookbox, not escaped. */
const HOST_FRAMES = [
  /^Context from (?:a session-start hook|a prompt-submit hook|a post-tool hook|the harness):\n/,
  /^The turn continues:\n/,
  /^A prompt-submit hook rewrote the prompt; the model sees:\n/,
  /^Prompt blocked by a hook: /,
];

/** ASCII punctuation not escaped by a backslash, in the hook's part of a field. */
function unescapedPunctuation(field: string): string[] {
  let hookPart = field;
  for (const frame of HOST_FRAMES) hookPart = hookPart.replace(frame, '');
  // The ask's frame: hook "<name>" asks: <reason>, name and reason both escaped.
  hookPart = hookPart.replace(/^hook "(.*)" asks: /, '$1 ');
  return [...hookPart.replace(/\\[!-/:-@[-`{-~]/g, '').matchAll(/[!-/:-@[-`{-~]/g)].map((match) => match[0]);
}

describe('golden ACP transcripts: hook text renders inert', () => {
  it('every golden is covered', () => {
    expect(GOLDENS.sort()).toEqual(Object.keys(SHOWN).sort());
  });

  for (const name of GOLDENS) {
    it(`${name}: each hook field is escaped, renders as paragraphs and breaks only, and shows the hook's words`, () => {
      const fields = hookTextFields(transcriptOf(name));
      expect(fields.length, 'hook-originated fields found').toBeGreaterThan(0);
      expect(fields.flatMap(({ where, text }) => notInert(text).map((problem) => `${where}: ${problem}`))).toEqual([]);
      // Inert by construction, not only because these hooks' words happen to be harmless.
      expect(fields.flatMap(({ where, text }) => unescapedPunctuation(text).map((char) => `${where}: ${char}`))).toEqual([]);
      const shown = fields.map(({ text }) => words(render(text, RENDERERS['markdown-it (html, linkify)']!).text));
      expect(shown.some((text) => text.includes(SHOWN[name]!)), shown.join('\n')).toBe(true);
      // What a person reads has no backslash the hooks did not write.
      expect(shown.filter((text) => text.includes('\\'))).toEqual([]);
    });
  }
});
