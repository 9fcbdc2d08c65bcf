/**
 * Finds where an entry file declares an export, so that a build error about
 * it ("not a function") can name file:line:col. Parses the entry alone; an
 * export that is only re-exported from elsewhere points at the re-export.
 */
import { readFileSync } from 'node:fs';
import type TS from 'typescript';
import { typescript } from './typescript.ts';

function hasExportModifier(node: TS.Node): boolean {
  const ts = typescript();
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** `file:line:col` of the declaration of export `name` in `entry`, or `undefined`. */
export function locateExport(entry: string, name: string): string | undefined {
  const ts = typescript();
  const source = ts.createSourceFile(entry, readFileSync(entry, 'utf8'), ts.ScriptTarget.Latest, true);
  let found: TS.Node | undefined;
  const visit = (node: TS.Node) => {
    if (found) return;
    if (ts.isExportAssignment(node) && name === 'default') found = node;
    else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      found = node.exportClause.elements.find((e) => e.name.text === name);
    } else if (hasExportModifier(node)) {
      if (ts.isVariableStatement(node)) {
        found = node.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
      } else if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name) {
        found = node;
      }
    }
  };
  ts.forEachChild(source, visit);
  if (!found) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(found.getStart(source));
  return `${entry}:${line + 1}:${character + 1}`;
}
