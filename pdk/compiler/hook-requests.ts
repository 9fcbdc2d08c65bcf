/**
 * What a hook requests in its own source — `defineHook({ capabilities, tools, limits, config, … })` —
 * read for `hook.json`.
 *
 * Read from the entry's syntax, not by evaluating it. The requests are what an operator reviews
 * before granting (hosts, paths, environment): as literals in the source they are what the diff
 * shows, and the build reads exactly that. Evaluating the module would mean running the author's
 * code either unsandboxed in Node (a teammate's `prepare` building a cloned project would run it
 * with their privileges) or inside the engine at pre-initialization, whose snapshot has no channel
 * for data back but its export list (a change to the C engine every hook is built on). So a
 * request must be a JSON literal (strings, numbers, booleans, arrays, objects; `as const` and
 * `satisfies` are fine); anything computed fails the build, naming file:line:col.
 */
import { readFileSync } from 'node:fs';
import type TS from 'typescript';
import { BuildError } from '../../host/errors.ts';
import { typescript } from './typescript.ts';

/** The keys of `defineHook`'s argument that are requests for `hook.json`, not handlers. */
export const REQUEST_KEYS = ['capabilities', 'tools', 'limits', 'config', 'description'] as const;
type RequestKey = (typeof REQUEST_KEYS)[number];

/** Any request key as a word: a quick test before parsing (a string or comment naming one only costs the parse). */
const REQUEST_KEY_WORD = new RegExp(`\\b(?:${REQUEST_KEYS.join('|')})\\b`);

/** The requests found, as plain JSON values (the manifest schema checks their shape). */
export type HookRequests = Partial<Record<RequestKey, unknown>>;

/**
 * The requests of the `defineHook({...})` call that is the entry's default export (directly, or
 * through a `const` it names); `{}` when the entry declares none or has no such call.
 */
export function readHookRequests(entry: string): HookRequests {
  const text = readFileSync(entry, 'utf8');
  // The compiler's own thread loads TypeScript only for the type-check: a source that names no
  // request key has none, and its build does not load TypeScript here too.
  if (!REQUEST_KEY_WORD.test(text)) return {};
  const ts = typescript();
  const source = ts.createSourceFile(entry, text, ts.ScriptTarget.Latest, true);
  const call = defaultDefineHookCall(ts, source);
  const argument = call?.arguments[0];
  if (argument === undefined || !ts.isObjectLiteralExpression(argument)) return {};
  const requests: HookRequests = {};
  for (const property of argument.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = propertyName(ts, property.name);
    if (key === undefined || !(REQUEST_KEYS as readonly string[]).includes(key)) continue;
    requests[key as RequestKey] = literal(ts, source, property.initializer, key);
  }
  return requests;
}

/** `export default defineHook(…)`, or `const hook = defineHook(…); export default hook`. */
function defaultDefineHookCall(ts: typeof TS, source: TS.SourceFile): TS.CallExpression | undefined {
  const calls = new Map<string, TS.CallExpression>();
  let found: TS.CallExpression | undefined;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const init = declaration.initializer === undefined ? undefined : unwrap(ts, declaration.initializer);
        if (ts.isIdentifier(declaration.name) && init !== undefined && isDefineHook(ts, init)) calls.set(declaration.name.text, init);
      }
    } else if (ts.isExportAssignment(statement) && statement.isExportEquals !== true) {
      const value = unwrap(ts, statement.expression);
      if (isDefineHook(ts, value)) found = value;
      else if (ts.isIdentifier(value)) found = calls.get(value.text);
    }
  }
  return found;
}

function isDefineHook(ts: typeof TS, node: TS.Expression): node is TS.CallExpression {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineHook';
}

/** The expression under `(…)`, `as const`, `satisfies T` and `<T>` casts. */
function unwrap(ts: typeof TS, node: TS.Expression): TS.Expression {
  let current = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = current.expression;
    } else return current;
  }
}

function propertyName(ts: typeof TS, name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** A JSON value from a literal expression; anything else is a build error at its position. */
function literal(ts: typeof TS, source: TS.SourceFile, node: TS.Expression, path: string): unknown {
  const value = unwrap(ts, node);
  if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return value.text;
  if (ts.isNumericLiteral(value)) return Number(value.text);
  if (ts.isPrefixUnaryExpression(value) && value.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(value.operand)) return -Number(value.operand.text);
  if (value.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (value.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(value)) return value.elements.map((element, i) => literal(ts, source, element, `${path}[${i}]`));
  if (ts.isObjectLiteralExpression(value)) {
    const object: Record<string, unknown> = {};
    for (const property of value.properties) {
      const key = ts.isPropertyAssignment(property) ? propertyName(ts, property.name) : undefined;
      if (!ts.isPropertyAssignment(property) || key === undefined) throw notLiteral(source, property, path);
      object[key] = literal(ts, source, property.initializer, `${path}.${key}`);
    }
    return object;
  }
  throw notLiteral(source, value, path);
}

function notLiteral(source: TS.SourceFile, node: TS.Node, path: string): BuildError {
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return new BuildError(
    `${source.fileName}:${line + 1}:${character + 1}: defineHook's ${path} must be written as a literal (strings, numbers, booleans, arrays, objects): ` +
      'hook.json is read from the source without running it',
  );
}
