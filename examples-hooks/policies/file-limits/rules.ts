/**
 * file-limits' pure policy: how much one call writes into a file, and
 * whether it is binary — through write/edit tools (`content`, `new_string`,
 * MultiEdit's edits), `apply_patch` (each file's added lines) and shell
 * here-documents written with `cat`/`tee` into a file. Reasons start
 * `file-limits: <rule>:`.
 */
import { oneOf } from '../shared/config.ts';
import { SHELL_TOOLS, shellCommand, walkShell } from '../shared/shell-walk.ts';
import { WRITE_TOOLS, callTargets } from '../shared/tool-targets.ts';

export const RULES = ['size', 'binary', 'config-error'] as const;

/** The config as the host validated it (defaults filled in): `host/catalog/file-limits.ts`. */
export interface LimitsConfig {
  readonly maxBytes: number;
  readonly oversize: 'deny' | 'ask';
  readonly binary: 'deny' | 'ask' | 'allow';
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly reason: string };

export function parseConfig(value: unknown): LimitsConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const oversize = oneOf(config.oversize, ['deny', 'ask'] as const);
  const binary = oneOf(config.binary, ['deny', 'ask', 'allow'] as const);
  if (typeof config.maxBytes !== 'number' || !(config.maxBytes > 0)) return { error: 'maxBytes: expected a positive number' };
  if (oversize === undefined || binary === undefined) return { error: 'oversize: expected deny or ask; binary: expected deny, ask or allow' };
  return { maxBytes: config.maxBytes, oversize, binary };
}

/** Characters past ASCII, by how many UTF-8 bytes each takes beyond one (a surrogate pair is one 4-byte character). */
const TWO_BYTE = /[\u0080-\u07ff]/g;
const PAIR = /[\ud800-\udbff][\udc00-\udfff]/g;
const THREE_BYTE = /[\u0800-\uffff]/g;

/**
 * UTF-8 length of a string (no TextEncoder in the engine). Counted with the
 * engine's regex matcher, not a character loop: the loop ran interpreted and
 * cost file-limits ~1 ms on a 2 KB heredoc (bench `policies`).
 */
export function utf8Bytes(text: string): number {
  if (!/[^\x00-\x7f]/.test(text)) return text.length;
  const count = (re: RegExp) => text.match(re)?.length ?? 0;
  const pairs = count(PAIR);
  // A pair's two halves are also two matches of THREE_BYTE (3 + 3 bytes from 2 length): take them back to 4.
  return text.length + count(TWO_BYTE) + 2 * count(THREE_BYTE) - 2 * pairs;
}

/** The characters binary content is made of: controls other than tab, newline, form feed, carriage return and escape; DEL; U+FFFD (what a decoder makes of bytes that are no text). */
const ODD = /[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f\ufffd]/g;

/** Binary: a NUL, or more than 1 in 10 of the first 8,000 characters odd ({@link ODD}). */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const head = text.slice(0, 8000);
  const odd = head.match(ODD)?.length ?? 0;
  return head.length > 0 && odd * 10 > head.length;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What one call writes, one text per file it writes: `[path, text]`. */
export function writtenTexts(toolName: string, args: Record<string, unknown>): [string, string][] {
  if (SHELL_TOOLS.has(toolName)) {
    const command = shellCommand(args);
    const out: [string, string][] = [];
    if (command === undefined) return out;
    walkShell(command, (simple, inv) => {
      if (inv === undefined || (inv.name !== 'cat' && inv.name !== 'tee') || inv.stdinTexts.length === 0) return;
      const files = inv.name === 'tee' ? inv.args.filter((a) => !a.startsWith('-')) : simple.redirects.filter((t) => t !== '/dev/null' && !/^&?\d+$/.test(t));
      for (const file of files) out.push([file, inv.stdinTexts.join('\n')]);
    });
    return out;
  }
  const targets = callTargets(toolName, args).targets.filter((t) => t.op === 'write');
  if (targets.length === 0) return [];
  if (!WRITE_TOOLS.has(toolName) || targets.some((t) => t.via === 'patch')) {
    // A patch: each file's added lines.
    const patch = str(args.command) ?? str(args.patch) ?? str(args.input) ?? '';
    const files = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of patch.split('\n')) {
      const header = /^\*\*\* (?:Add|Update) File: (.+?)\s*$/.exec(line);
      if (header !== null) files.set(header[1] as string, (current = []));
      else if (/^\*\*\* (?:Delete File:|End Patch)/.test(line)) current = undefined;
      else if (current !== undefined && line.startsWith('+')) current.push(line.slice(1));
    }
    return [...files].map(([path, lines]): [string, string] => [path, lines.join('\n')]);
  }
  const edits = Array.isArray(args.edits) ? args.edits.map((edit) => str((edit as Record<string, unknown> | null)?.new_string) ?? '') : [];
  const text = [str(args.content), str(args.new_string), str(args.new_str), str(args.new_source), str(args.file_text), ...edits].filter((t) => t !== undefined).join('\n');
  return [[targets[0]?.path as string, text]];
}

/** Judges one pre-tool call: the first file written too big or binary decides. */
export function judgeCall(toolName: string, args: Record<string, unknown>, config: LimitsConfig): Verdict {
  for (const [path, text] of writtenTexts(toolName, args)) {
    const bytes = utf8Bytes(text);
    if (bytes > config.maxBytes) return { action: config.oversize, reason: `file-limits: size: ${toolName} writes ${bytes} bytes into ${JSON.stringify(path)}, over the limit of ${config.maxBytes}` };
    if (config.binary !== 'allow' && looksBinary(text)) return { action: config.binary, reason: `file-limits: binary: ${toolName} writes binary content into ${JSON.stringify(path)}` };
  }
  return { action: 'allow' };
}
