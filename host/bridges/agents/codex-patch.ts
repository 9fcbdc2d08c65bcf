/**
 * What one of Codex's `apply_patch` envelopes does to the file system, read
 * from its header lines only (the hunks are not applied or checked here):
 *
 * ```text
 * *** Begin Patch
 * *** Add File: <path>        (followed by "+line" lines: the new file)
 * *** Delete File: <path>
 * *** Update File: <path>     (optionally "*** Move to: <new path>", then hunks)
 * *** End Patch
 * ```
 *
 * Every path a patch touches is listed, so a hook deciding on file writes
 * sees each of them: a patch that edits `.env` is a write to `.env`.
 */
export interface PatchFileChange {
  readonly kind: 'add' | 'delete' | 'update' | 'move-from' | 'move-to';
  /** The path as written in the patch (relative to the session cwd, or absolute). */
  readonly path: string;
  /** add: the new file's content; update and move-to: the hunk text; delete and move-from: empty. */
  readonly content: string;
}

const HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.*)$/;

/**
 * The file changes in a patch, in patch order. Lines that are not headers
 * belong to the change above them. A patch with no header at all yields no
 * changes (the caller decides what that means).
 */
export function patchFileChanges(patch: string): PatchFileChange[] {
  const changes: { kind: PatchFileChange['kind']; path: string; lines: string[] }[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const header = HEADER.exec(line);
    if (header !== null) {
      const file = header[2]!.trim();
      const kind = header[1]!;
      if (kind === 'Move to') {
        const from = changes.at(-1);
        // The old path loses its content; the hunks are written to the new one.
        if (from?.kind === 'update') from.kind = 'move-from';
        changes.push({ kind: 'move-to', path: file, lines: from?.lines.splice(0) ?? [] });
        continue;
      }
      changes.push({ kind: kind === 'Add File' ? 'add' : kind === 'Delete File' ? 'delete' : 'update', path: file, lines: [] });
      continue;
    }
    if (line === '*** Begin Patch' || line === '*** End Patch' || line === '*** End of File') continue;
    changes.at(-1)?.lines.push(line);
  }
  return changes.map(({ kind, path, lines }) => ({ kind, path, content: contentOf(kind, lines) }));
}

function contentOf(kind: PatchFileChange['kind'], lines: readonly string[]): string {
  if (kind === 'delete' || kind === 'move-from') return '';
  if (kind === 'add') {
    const body = lines.filter((line) => line.startsWith('+')).map((line) => line.slice(1));
    return body.length === 0 ? '' : `${body.join('\n')}\n`;
  }
  return lines.join('\n').replace(/\n+$/, '');
}
