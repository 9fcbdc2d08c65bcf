import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TomlError, parse as parseToml } from 'smol-toml';
import { parseJsonText } from '../json/index.ts';
import { ConfigError } from '../errors.ts';
import { type ImportResult, importToolHooks } from './import-hooks.ts';

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Imports the hooks of a Claude Code settings file (`~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`, or a plugin's
 * `hooks/hooks.json`: all share the `hooks` layout).
 *
 * @throws ConfigError naming the file (and line, column or JSON path) when it is unreadable or malformed
 */
export function importClaudeSettingsFile(file: string): ImportResult {
  const absolute = path.resolve(file);
  return importToolHooks('claude-code', absolute, parseJsonText(absolute, readText(absolute)));
}

/**
 * Imports the hooks of a Codex `hooks.json`, or the inline `[hooks]` tables of
 * a Codex `config.toml` (`[[hooks.PreToolUse]]` with `[[hooks.PreToolUse.hooks]]`).
 *
 * @throws ConfigError naming the file (and line, column or JSON path) when it is unreadable or malformed
 */
export function importCodexHooksFile(file: string): ImportResult {
  const absolute = path.resolve(file);
  const text = readText(absolute);
  if (!absolute.endsWith('.toml')) return importToolHooks('codex', absolute, parseJsonText(absolute, text));
  let document: unknown;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigError(`${absolute}:${error.line}:${error.column}: invalid TOML: ${error.message.split('\n')[0]}`, { cause: error });
    throw error;
  }
  // Only the [hooks] tables: the rest of config.toml (model, sandbox, MCP…) is not hooks.
  return importToolHooks('codex', absolute, { hooks: (document as { hooks?: unknown }).hooks });
}
