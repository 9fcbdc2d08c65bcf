import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentSetup } from '../agents/index.ts';
import { ConfigError } from '../errors.ts';

/** An agent's settings file as `setup` reads and writes it: strict JSON (or the agent's own format), never overwritten when unreadable, replaced whole. */

type SettingsFormat = AgentSetup['fileFormat'];

export function readSettings(file: string, format?: SettingsFormat): Record<string, unknown> {
  if (!existsSync(file)) return {};
  if (format !== undefined) {
    try {
      return format.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message}); fix it first, hookbox will not overwrite it`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${file}: expected a JSON object at the top level`);
  return value as Record<string, unknown>;
}

/** Writes next to the file and renames over it, so a crash never leaves half a settings file. */
export function writeSettings(file: string, settings: Record<string, unknown>, secret: boolean, format?: SettingsFormat): void {
  const text = format === undefined ? `${JSON.stringify(settings, null, 2)}\n` : format.format(settings);
  // A file that is hookbox's whole (a plugin file) goes when nothing of hookbox's is left in it.
  if (text === undefined) return void rmSync(file, { force: true });
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.hookbox-${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: secret ? 0o600 : 0o644 });
  renameSync(temp, file);
}

