/**
 * Path globs for the catalog's policies, matched segment by segment so a
 * target can be an ancestor of a protected path (`rm -rf .github` removes
 * `.github/workflows/ci.yml`) or a shell glob itself (`rm .en*`). No PDK
 * globals: runs in Node (unit tests) and in the compiled hooks.
 *
 * Pattern forms: `*` (any characters but `/`), `?` (one), `**` (any number of
 * segments), `{a,b}` (alternatives). A pattern without `/` matches a name at
 * any depth (`.env`); one with `/` is relative to the session's working
 * folder (`.github/workflows/**`), unless it is absolute (`/etc/**`) or starts
 * with `~/` (matched against a path written with `~/`).
 */

/** One compiled pattern: its segments, each a regular expression or `**`. */
export interface PathGlob {
  readonly source: string;
  /** A bare name (no `/`): matched against every segment's name. */
  readonly anyDepth: boolean;
  readonly anchor: 'relative' | 'absolute' | 'home';
  readonly segments: readonly (RegExp | '**')[];
  /** Each segment's text, to test a wildcard target segment against a literal one. */
  readonly texts: readonly string[];
}

const WILDCARD = /[*?[{]/;

function escapeRegExp(text: string): string {
  return text.replace(/[.+^$()|\\\]]/g, '\\$&');
}

/** One segment's glob as an anchored regular expression. */
export function segmentRegExp(segment: string): RegExp {
  let out = '';
  let braces = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else if (c === '[') out += '\\[';
    else out += escapeRegExp(c);
  }
  // An unclosed `{` is taken literally rather than making a pattern that never matches.
  if (braces > 0) return new RegExp(`^${escapeRegExp(segment).replace(/\*/g, '[^/]*')}$`);
  return new RegExp(`^${out}$`);
}

/** Compiles an operator's glob; `undefined` for an empty one. */
export function compileGlob(source: string): PathGlob | undefined {
  let text = source.trim();
  let anchor: PathGlob['anchor'] = 'relative';
  if (text.startsWith('~/')) {
    anchor = 'home';
    text = text.slice(2);
  } else if (text.startsWith('/')) anchor = 'absolute';
  else if (text.startsWith('./')) text = text.slice(2);
  const parts = text.split('/').filter((part) => part !== '' && part !== '.');
  // `dir/` protects what is under it as `dir/**` would.
  if (source.endsWith('/')) parts.push('**');
  if (parts.length === 0) return undefined;
  const anyDepth = anchor === 'relative' && parts.length === 1 && !source.includes('/');
  return { source, anyDepth, anchor, segments: parts.map((part) => (part === '**' ? '**' : segmentRegExp(part))), texts: parts };
}

function segmentMatches(glob: PathGlob, index: number, target: string): boolean {
  const pattern = glob.segments[index] as RegExp;
  // A target that is itself a shell glob (`.en*`) may name the protected file: test it the other way round.
  if (WILDCARD.test(target)) return WILDCARD.test(glob.texts[index] as string) || segmentRegExp(target).test(glob.texts[index] as string);
  return pattern.test(target);
}

/**
 * Whether the pattern's segments from `p` match the target's from `t`.
 * `ancestor`: a target that ends while the pattern goes on matches (deleting
 * or moving a folder takes what is under it).
 */
function matchFrom(glob: PathGlob, p: number, target: readonly string[], t: number, ancestor: boolean): boolean {
  if (p === glob.segments.length) return t === target.length;
  if (t === target.length) return ancestor || glob.segments.slice(p).every((s) => s === '**');
  if (glob.segments[p] === '**') {
    for (let skip = t; skip <= target.length; skip++) if (matchFrom(glob, p + 1, target, skip, ancestor)) return true;
    return false;
  }
  return segmentMatches(glob, p, target[t] as string) && matchFrom(glob, p + 1, target, t + 1, ancestor);
}

/** A target path, resolved the way the policies compare it. */
export interface ResolvedTarget {
  /** Absolute segments (after `.`/`..`), or the segments after `~/`. */
  readonly segments: readonly string[];
  readonly anchor: 'absolute' | 'home';
  /** The segments below the session cwd, when the path is inside it. */
  readonly relative?: readonly string[];
}

function collapse(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

/** Resolves a path as written (relative to `cwd`, absolute, or `~/…`). */
export function resolveTarget(written: string, cwd: string): ResolvedTarget {
  if (written === '~' || written.startsWith('~/')) return { segments: collapse(written.slice(1).split('/')), anchor: 'home' };
  const base = written.startsWith('/') ? [] : collapse(cwd.split('/'));
  const segments = collapse([...base, ...written.split('/')]);
  const root = collapse(cwd.split('/'));
  const inside = root.every((part, i) => segments[i] === part);
  return { segments, anchor: 'absolute', ...(inside && { relative: segments.slice(root.length) }) };
}

/**
 * How far a change reaches: the path alone (`exact`: a write), or what may be
 * under it (`ancestor`: a move or delete, so `rm .github` hits
 * `.github/workflows/**`), or anything below at any depth (`recursive`: `rm
 * -r dir` may remove a `.env` inside it).
 */
export type Reach = 'exact' | 'ancestor' | 'recursive';

/** Whether `glob` protects `target` for a change of this reach. */
export function globMatches(glob: PathGlob, target: ResolvedTarget, reach: Reach): boolean {
  const ancestor = reach !== 'exact';
  if (glob.anyDepth) {
    // `.env` protects every `.env`; a folder removed recursively may hold one anywhere below.
    for (const name of target.segments) if (segmentMatches(glob, 0, name)) return true;
    return reach === 'recursive' && target.relative !== undefined;
  }
  if (glob.anchor === 'home') return target.anchor === 'home' && matchFrom(glob, 0, target.segments, 0, ancestor);
  if (glob.anchor === 'absolute') return target.anchor === 'absolute' && matchFrom(glob, 0, target.segments, 0, ancestor);
  return target.relative !== undefined && matchFrom(glob, 0, target.relative, 0, ancestor);
}
