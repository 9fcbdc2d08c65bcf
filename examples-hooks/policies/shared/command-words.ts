/**
 * The operator's command patterns, one implementation for every policy that
 * takes them (`command-rules`, `permission-requests`): words a normalised
 * program invocation starts with, `*` in a word for any characters (`*`
 * alone: any one word), a final `**` for any rest. No PDK globals.
 */
import type { Invocation } from './shell-walk.ts';

/** One word of a pattern: itself, or a regular expression when it holds a `*`. */
export type Word = string | RegExp;

/** A word as a matcher: `*` stands for any characters, everything else is literal. */
export function compileWord(word: string): Word {
  return word !== '**' && word.includes('*') ? new RegExp(`^${word.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`) : word;
}

/** A command pattern (`git push origin feature/*`, `npm **`) as its words. */
export function compileWords(command: string): Word[] {
  return command.trim().split(/\s+/).map(compileWord);
}

/** Whether `text` is the word (exactly, or by its wildcard). */
export function wordMatches(word: Word, text: string): boolean {
  return typeof word === 'string' ? word === text : word.test(text);
}

/** Whether the invocation (its program, then its arguments) starts with the pattern's words. */
export function wordsMatch(words: readonly Word[], inv: Invocation): boolean {
  const line = [inv.name, ...inv.args];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as Word;
    if (word === '**' && i === words.length - 1) return true;
    const actual = line[i];
    if (actual === undefined || !wordMatches(word, actual)) return false;
  }
  return true;
}
