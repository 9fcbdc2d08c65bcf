/**
 * Two promises of the telemetry layer that no run shows: the OpenTelemetry
 * guide's "What is reported" section documents exactly the names in
 * `host/telemetry/names.ts`, and the OpenTelemetry SDK is reachable only
 * through the CLI's dynamic import (so it is never loaded while telemetry is
 * off, and the library never loads it at all).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ATTR, METRIC, SPAN } from '../../host/telemetry/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const GUIDE = 'docs/guides/opentelemetry.md';

function readmeSection(): string {
  const guide = readFileSync(path.join(ROOT, GUIDE), 'utf8');
  const section = /\n## What is reported\n([\s\S]*?)(?:\n## |$)/.exec(guide)?.[1];
  if (section === undefined) throw new Error(`${GUIDE} has no "## What is reported" section`);
  return section;
}

describe('the OpenTelemetry guide documents every telemetry name', () => {
  const names: readonly string[] = [...Object.values(SPAN), ...Object.values(METRIC), ...Object.values(ATTR)];

  it('lists each span, metric and attribute name', () => {
    const section = readmeSection();
    const missing = names.filter((name) => !section.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('names nothing that does not exist', () => {
    const documented = new Set([...readmeSection().matchAll(/`(hookbox\.[a-z_.]+)`/g)].map((match) => match[1] as string));
    expect([...documented].filter((name) => !names.includes(name))).toEqual([]);
  });
});

interface ImportSite {
  readonly file: string;
  readonly specifier: string;
  readonly dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'build', '.cache'].includes(entry.name)) out.push(...sourceFiles(relative));
    } else if (/\.(ts|mts|mjs|js|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(relative);
  }
  return out;
}

/** Every import of a file, static (`import`, `export … from`) or dynamic (`import()`), with relative specifiers resolved to repository paths. */
function imports(file: string): ImportSite[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: ImportSite[] = [];
  const add = (specifier: string, dynamic: boolean) =>
    out.push({ file, dynamic, specifier: specifier.startsWith('.') ? path.posix.join(path.posix.dirname(file), specifier) : specifier });
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('the OpenTelemetry SDK loads only when OTEL_* turns it on', () => {
  const sites = ['host', 'pdk'].flatMap(sourceFiles).flatMap(imports);

  it('only host/telemetry/sdk.ts imports an SDK or exporter package', () => {
    const sdk = sites.filter((site) => site.specifier.startsWith('@opentelemetry/') && site.specifier !== '@opentelemetry/api');
    expect(sdk.length).toBeGreaterThan(0);
    expect(new Set(sdk.map((site) => site.file))).toEqual(new Set(['host/telemetry/sdk.ts']));
  });

  it('only host/telemetry imports the API', () => {
    const api = sites.filter((site) => site.specifier === '@opentelemetry/api');
    expect(new Set(api.map((site) => path.posix.dirname(site.file)))).toEqual(new Set(['host/telemetry']));
  });

  it('sdk.ts is imported only dynamically, after reading OTEL_*: by the CLI and by the SDK adapters\' decider', () => {
    const users = sites.filter((site) => site.specifier === 'host/telemetry/sdk.ts');
    expect(users).toEqual([
      { file: 'host/cli/telemetry.ts', specifier: 'host/telemetry/sdk.ts', dynamic: true },
      { file: 'host/sdk/sdk-decider.ts', specifier: 'host/telemetry/sdk.ts', dynamic: true },
    ]);
  });
});
