import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { TomlError, parse as parseToml } from 'smol-toml';
import { parseJsonText } from '../json/index.ts';
import { ConfigError } from '../errors.ts';
import { type ImportContext, type ImportResult, importToolHooks } from './import-hooks.ts';

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
export function importClaudeSettingsFile(file: string, cwd = process.cwd()): ImportResult {
  const absolute = path.resolve(file);
  return importToolHooks('claude-code', absolute, parseJsonText(absolute, readText(absolute)), claudeContext(absolute, cwd));
}

/**
 * Where a Claude Code settings file's hooks run from: a project's
 * `.claude/settings*.json` belongs to the folder above `.claude`; user
 * settings and a plugin's hooks to the project hookbox runs in (`cwd`). A
 * plugin is the nearest folder above the file holding `.claude-plugin/`, else
 * the folder above a `hooks/` folder holding the file.
 */
export function claudeContext(file: string, cwd: string): ImportContext {
  const dir = path.dirname(file);
  const userDir = path.join(homedir(), '.claude');
  const projectDir = path.basename(dir) === '.claude' && dir !== userDir ? path.dirname(dir) : path.resolve(cwd);
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.claude-plugin'))) return { projectDir, pluginRoot: at };
    if (path.dirname(at) === at) break;
  }
  return path.basename(dir) === 'hooks' ? { projectDir, pluginRoot: path.dirname(dir) } : { projectDir };
}

/**
 * Imports the hooks of a Codex `hooks.json`, or the inline `[hooks]` tables of
 * a Codex `config.toml` (`[[hooks.PreToolUse]]` with `[[hooks.PreToolUse.hooks]]`).
 *
 * @throws ConfigError naming the file (and line, column or JSON path) when it is unreadable or malformed
 */
export function importCodexHooksFile(file: string, cwd = process.cwd()): ImportResult {
  const absolute = path.resolve(file);
  const text = readText(absolute);
  // A project's `.codex/` belongs to the folder above it; user files to the project hookbox runs in.
  const dir = path.dirname(absolute);
  const context = { projectDir: path.basename(dir) === '.codex' && dir !== path.join(homedir(), '.codex') ? path.dirname(dir) : path.resolve(cwd) };
  if (!absolute.endsWith('.toml')) return importToolHooks('codex', absolute, parseJsonText(absolute, text), context);
  let document: unknown;
  try {
    document = parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigError(`${absolute}:${error.line}:${error.column}: invalid TOML: ${error.message.split('\n')[0]}`, { cause: error });
    throw error;
  }
  // Only the [hooks] tables: the rest of config.toml (model, sandbox, MCP…) is not hooks.
  return importToolHooks('codex', absolute, { hooks: (document as { hooks?: unknown }).hooks }, context);
}
