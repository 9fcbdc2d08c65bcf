/**
 * Imports point down: a folder may import only folders of a lower rank in
 * the layer table of docs/architecture.md (the one source of the order; this
 * test reads it). Type-only imports, re-exports and dynamic imports count.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCANNED = ['host', 'pdk', 'examples-hooks'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'src', '.cache']);

interface Layer {
  readonly folder: string;
  readonly rank: number;
}

/** The rows between `<!-- layers:begin -->` and `<!-- layers:end -->`: `| rank | \`folder\` | what |`. */
function readLayers(): Layer[] {
  const doc = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const block = /<!-- layers:begin -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/architecture.md: no <!-- layers:begin --> … <!-- layers:end --> table');
  const layers: Layer[] = [];
  for (const line of block.split('\n')) {
    const row = /^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|/.exec(line);
    if (row !== null) layers.push({ rank: Number(row[1]), folder: row[2]! });
  }
  return layers;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...sourceFiles(relative));
    } else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(relative);
    }
  }
  return out;
}

/** Relative module specifiers of a file: imports, `export … from`, `import()`. */
function relativeImports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((ref) => ref.fileName).filter((name) => name.startsWith('.'));
}

/** The layer a repository path belongs to: the longest folder (or file) of the table containing it. */
function layerOf(layers: readonly Layer[], file: string): Layer | undefined {
  let best: Layer | undefined;
  for (const layer of layers) {
    const inside = file === layer.folder || file.startsWith(`${layer.folder}/`);
    if (inside && (best === undefined || layer.folder.length > best.folder.length)) best = layer;
  }
  return best;
}

/** Every import that points sideways or up, as `from → to (ranks)` lines, plus files no layer claims. */
export function importViolations(layers: readonly Layer[], files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const from = layerOf(layers, file);
    if (from === undefined) {
      problems.push(`${file}: not in the layer table of docs/architecture.md`);
      continue;
    }
    for (const specifier of relativeImports(file)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const to = layerOf(layers, target);
      if (to === undefined || to.folder === from.folder) continue;
      if (to.rank >= from.rank) {
        problems.push(`${file} imports ${target}: ${from.folder} (rank ${from.rank}) may not import ${to.folder} (rank ${to.rank})`);
      }
    }
  }
  return problems;
}

describe('import direction (docs/architecture.md, "Layers")', () => {
  const layers = readLayers();

  it('the layer table is readable and names each folder once', () => {
    expect(layers.length).toBeGreaterThan(10);
    const folders = layers.map((layer) => layer.folder);
    expect(new Set(folders).size).toBe(folders.length);
  });

  it('finds an upward import when there is one', () => {
    // The check itself must be able to fail: a seam file importing the runner is upward.
    const fake = [{ folder: 'host/seams', rank: 2 }, { folder: 'host/runner', rank: 4 }];
    expect(importViolations(fake, ['host/seams/seam.ts'])).toEqual([]);
    const upward = importViolations([{ folder: 'host/runner', rank: 4 }, { folder: 'host/seams', rank: 5 }], ['host/runner/runner.ts']);
    expect(upward.some((line) => line.includes('host/runner (rank 4) may not import host/seams (rank 5)'))).toBe(true);
  });

  it('every import in host/, pdk/ and examples-hooks/ points to a lower layer', () => {
    const files = SCANNED.flatMap((dir) => sourceFiles(dir));
    expect(files.length).toBeGreaterThan(100);
    expect(importViolations(layers, files)).toEqual([]);
  });

  it('no module imports itself back through others (no import cycles)', () => {
    const files = new Set(SCANNED.flatMap((dir) => sourceFiles(dir)));
    const edges = new Map<string, string[]>();
    for (const file of files) {
      edges.set(
        file,
        relativeImports(file)
          .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
          .filter((target) => files.has(target)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const target of edges.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});

