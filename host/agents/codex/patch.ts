/**
 * What one of Codex's `apply_patch` envelopes does to the file system, read
 * by the rules Codex's own parser applies (codex 0.169.0, lenient mode, the
 * one Codex runs):
 *
 * ```text
 * *** Begin Patch
 * *** Add File: <path>        (followed by "+line" lines: the new file)
 * *** Delete File: <path>
 * *** Update File: <path>     (optionally "*** Move to: <new path>", then chunks)
 * *** End Patch
 * ```
 *
 * - The whole text is trimmed, then split into lines (a `\r` before `\n` is
 *   dropped). The first and last lines are compared trimmed to the markers;
 *   failing that, a heredoc wrapper (`<<EOF`, `<<'EOF'`, `<<"EOF"` as the
 *   first line, a last line ending in `EOF`, at least 4 lines) is taken off.
 * - Each file header is read **trimmed** (spaces and tabs around it are
 *   ignored), but `*** Move to:` only at column 0, right after its header.
 * - An add takes the `+` lines that follow; an update takes chunks (`@@`,
 *   `@@ context`, or — first chunk only — none), each line ` `, `+`, `-`,
 *   empty, or `*** End of File`; a line starting with `*` ends the update.
 *
 * Whitespace is Rust's (`char::is_whitespace`), not JavaScript's: U+0085
 * counts, U+FEFF does not. A patch Codex would reject is still read for every
 * header it names (trimmed), so hooks decide on each path it mentions — the
 * stricter answer when it would not have applied anyway.
 */
export interface PatchFileChange {
  readonly kind: 'add' | 'delete' | 'update' | 'move-from' | 'move-to';
  /** The path as written in the patch (relative to the session cwd, or absolute). */
  readonly path: string;
  /**
   * The text the patch writes there: add — the new file; update and move-to
   * — each chunk's new lines (context and added lines, as an edit's
   * replacement text holds them), chunks joined by newlines; delete and
   * move-from — empty.
   */
  readonly content: string;
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';
const HEREDOC_STARTS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

/** Rust's `char::is_whitespace` (the Unicode White_Space property). */
const WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_WS = new RegExp(`^[${WS}]+`);
const TRAILING_WS = new RegExp(`[${WS}]+$`);

/** Rust's `str::trim`. */
export function rustTrim(text: string): string {
  return text.replace(LEADING_WS, '').replace(TRAILING_WS, '');
}

/** Rust's `str::lines`: split on `\n`, one trailing `\r` off each line, no empty last line after a final `\n`. */
function rustLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/**
 * The file changes in a patch, in patch order: as Codex parses it, or — when
 * Codex would reject the patch — every header line it names. A text with no
 * header at all yields none (the caller decides what that means).
 */
export function patchFileChanges(patch: string): PatchFileChange[] {
  return parseCodexPatch(patch) ?? headerScan(patch);
}

/** The changes exactly as Codex's parser reads them; `undefined` when Codex would refuse the patch. */
export function parseCodexPatch(patch: string): PatchFileChange[] | undefined {
  const body = patchBody(rustLines(rustTrim(patch)));
  if (body === undefined) return undefined;
  const changes: PatchFileChange[] = [];
  let at = 0;
  while (at < body.length) {
    const hunk = parseHunk(body, at);
    if (hunk === undefined) return undefined;
    changes.push(...hunk.changes);
    at += hunk.lines;
  }
  return changes;
}

/** The lines between the markers (strict, then heredoc-wrapped), or undefined. */
function patchBody(lines: readonly string[]): readonly string[] | undefined {
  const strict = (candidate: readonly string[]): readonly string[] | undefined =>
    candidate.length >= 2 && rustTrim(candidate[0]!) === BEGIN && rustTrim(candidate.at(-1)!) === END ? candidate.slice(1, -1) : undefined;
  const direct = strict(lines);
  if (direct !== undefined) return direct;
  if (lines.length >= 4 && HEREDOC_STARTS.has(lines[0]!) && lines.at(-1)!.endsWith('EOF')) return strict(lines.slice(1, -1));
  return undefined;
}

function parseHunk(lines: readonly string[], at: number): { changes: PatchFileChange[]; lines: number } | undefined {
  const header = rustTrim(lines[at]!);
  if (header.startsWith(ADD)) {
    const added: string[] = [];
    while (at + 1 + added.length < lines.length && lines[at + 1 + added.length]!.startsWith('+')) added.push(lines[at + 1 + added.length]!.slice(1));
    return { changes: [{ kind: 'add', path: header.slice(ADD.length), content: added.map((line) => `${line}\n`).join('') }], lines: 1 + added.length };
  }
  if (header.startsWith(DELETE)) return { changes: [{ kind: 'delete', path: header.slice(DELETE.length), content: '' }], lines: 1 };
  if (!header.startsWith(UPDATE)) return undefined;
  const path = header.slice(UPDATE.length);
  let next = at + 1;
  const moveTo = lines[next]?.startsWith(MOVE) === true ? lines[next]!.slice(MOVE.length) : undefined;
  if (moveTo !== undefined) next += 1;
  const written: string[] = [];
  let chunks = 0;
  while (next < lines.length) {
    const line = lines[next]!;
    if (rustTrim(line) === '') {
      next += 1;
      continue;
    }
    if (line.startsWith('*')) break;
    const chunk = parseChunk(lines, next, chunks === 0);
    if (chunk === undefined) return undefined;
    written.push(...chunk.newLines);
    chunks += 1;
    next += chunk.lines;
  }
  if (chunks === 0) return undefined;
  const content = written.join('\n');
  const changes: PatchFileChange[] =
    moveTo === undefined
      ? [{ kind: 'update', path, content }]
      : [
          { kind: 'move-from', path, content: '' },
          { kind: 'move-to', path: moveTo, content },
        ];
  return { changes, lines: next - at };
}

/** One update chunk from `at`: its new lines and how many lines it took; undefined when Codex would refuse it. */
function parseChunk(lines: readonly string[], at: number, contextOptional: boolean): { newLines: string[]; lines: number } | undefined {
  const first = lines[at]!;
  const start = first === '@@' || first.startsWith('@@ ') ? 1 : contextOptional ? 0 : undefined;
  if (start === undefined || at + start >= lines.length) return undefined;
  const newLines: string[] = [];
  let taken = 0;
  for (const line of lines.slice(at + start)) {
    if (line === EOF_MARKER) {
      if (taken === 0) return undefined;
      taken += 1;
      break;
    }
    const marker = line.charAt(0);
    if (marker === '' || marker === ' ' || marker === '+') newLines.push(line.slice(1));
    else if (marker !== '-') {
      if (taken === 0) return undefined;
      break;
    }
    taken += 1;
  }
  return { newLines, lines: taken + start };
}

const HEADERS: readonly [string, PatchFileChange['kind']][] = [
  [ADD, 'add'],
  [DELETE, 'delete'],
  [UPDATE, 'update'],
  [MOVE, 'move-to'],
];

/** Every trimmed header line of a patch Codex would not parse: the paths it names, with no content. */
function headerScan(patch: string): PatchFileChange[] {
  const changes: PatchFileChange[] = [];
  for (const raw of rustLines(patch)) {
    const line = rustTrim(raw);
    const found = HEADERS.find(([marker]) => line.startsWith(marker));
    if (found !== undefined && line.length > found[0].length) changes.push({ kind: found[1], path: line.slice(found[0].length), content: '' });
  }
  return changes;
}
