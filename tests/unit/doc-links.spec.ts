/**
 * Every relative link in the documentation resolves: README.md, docs/**,
 * the module READMEs (host/**, pdk/, bench/, examples-hooks/**). A link's
 * file must exist, and a `#anchor` into a Markdown file (or within the same
 * file) must name one of its headings, slugged the way GitHub renders them.
 * Links inside code (fenced blocks, `inline code`) are text, not links, and
 * are skipped; so are absolute URLs. A failure names the file, the line and
 * the target.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Markdown files under `dir` (relative to the root) whose name passes `keep`. */
function markdownFiles(dir: string, keep: (name: string) => boolean): string[] {
  const absolute = path.join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(absolute, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(relative, keep));
    else if (entry.name.endsWith('.md') && keep(entry.name)) found.push(relative);
  }
  return found;
}

const isReadme = (name: string) => name === 'README.md';
const DOCS = [
  'README.md',
  ...markdownFiles('docs', () => true),
  ...markdownFiles('host', isReadme),
  'bench/README.md',
  'pdk/README.md',
  ...markdownFiles('examples-hooks', isReadme),
].filter((file) => existsSync(path.join(ROOT, file)));

/** The file's lines with fenced code blocks blanked (kept as empty lines so numbers stay right). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  // Code spans are literal text; outside them a link anchors on its text and inline HTML is dropped.
  const text = heading
    .split(/(`+[^`]*`+)/)
    .map((part) => (part.startsWith('`') ? part.replace(/`/g, '') : part.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '')))
    .join('');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
/** Every anchor a Markdown file offers: its headings' slugs (repeats get -1, -2…) and `<a name|id>`s. */
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached !== undefined) return cached;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] as string);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  readonly line: number;
  readonly target: string;
}

/** Relative links of one file: inline `[text](target)`, images, and `[label]: target` definitions. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = raw.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length)); // inline code is not a link
    const targets = [
      ...[...line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] as string),
      ...[...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/g)].map((match) => match[1] as string),
    ];
    for (const target of targets) links.push({ line: index + 1, target: target.replace(/^<|>$/g, '') });
  });
  return links;
}

/** Why a link from `file` does not resolve, or undefined when it does. */
function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:…
  const hash = target.indexOf('#');
  const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = filePart === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), filePart);
  if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined || anchor === '' || /^L\d+(-L\d+)?$/.test(anchor)) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return undefined;
  return anchorsOf(resolved).has(anchor) ? undefined : `no heading with the anchor #${anchor}`;
}

describe('documentation links', () => {
  it('walks the files it promises to', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/testing.md', 'host/runner/README.md', 'pdk/README.md', 'bench/README.md']));
    expect(DOCS.some((file) => file.startsWith('docs/guides/'))).toBe(true);
    expect(DOCS.some((file) => file.startsWith('examples-hooks/'))).toBe(true);
  });

  it('finds links, skipping code and absolute URLs, and slugs headings as GitHub does', () => {
    const text = ['[a](x.md) `[b](not-a-link.md)` ![c](img.png "title")', '```', '[d](in-code.md)', '```', '[e]: <ref.md#part>'].join('\n');
    expect(linksOf(text)).toEqual([
      { line: 1, target: 'x.md' },
      { line: 1, target: 'img.png' },
      { line: 5, target: 'ref.md#part' },
    ]);
    expect(slug("WASI: hookbox's own preview1 layer (wasi/)")).toBe('wasi-hookboxs-own-preview1-layer-wasi');
    expect(slug('`hookbox verify [--config F] [--json]`')).toBe('hookbox-verify---config-f---json');
    expect(slug('Codex (`@openai/codex` 0.169.0)')).toBe('codex-openaicodex-01690');
    expect(slug('`hookbox add <tarball | folder | name>`')).toBe('hookbox-add-tarball--folder--name');
  });

  it.each(DOCS)('%s: every relative link and anchor resolves', (file) => {
    const broken = linksOf(readFileSync(path.join(ROOT, file), 'utf8')).flatMap(({ line, target }) => {
      const why = problem(file, target);
      return why === undefined ? [] : [`${file}:${line}: ${target} (${why})`];
    });
    expect(broken).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

  it('links every guide and every reference page (a page nothing links is never found)', () => {
    for (const dir of ['docs/guides', 'docs/reference']) {
      const pages = readdirSync(path.join(ROOT, dir)).filter((name) => name.endsWith('.md'));
      expect(pages.filter((page) => !readme.includes(`](${dir}/${page})`)), dir).toEqual([]);
    }
  });

  it('stays the short user README (at most ~200 lines; depth goes to docs/guides and docs/reference)', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(210);
  });

  it('has one quick path: a single sh block between the quick-path markers, one command per line', () => {
    const blocks = [...readme.matchAll(/<!-- quick-path:start -->\s*```sh\n([\s\S]*?)```\s*<!-- quick-path:end -->/g)];
    expect(blocks).toHaveLength(1);
    const lines = (blocks[0]?.[1] ?? '').split('\n').filter((line) => line.trim() !== '');
    expect(lines[0]).toBe('npm i -D hookbox');
    // A line ending in a backslash would be run as two commands by a line-by-line runner; a bare cd would move every later line.
    expect(lines.filter((line) => /\\\s*$/.test(line) || /^\s*cd\s/.test(line))).toEqual([]);
  });
});
