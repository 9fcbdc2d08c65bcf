import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULES = fileURLToPath(new URL('../../node_modules/@anthropic-ai/', import.meta.url));

/**
 * The Claude Code binary the SDK runs when `pathToClaudeCodeExecutable` is
 * not given: the one in its optional package for this platform (glibc first
 * on Linux, as the SDK looks for it).
 */
export function claudeAgentSdkBinary(): string | undefined {
  const platform = `${process.platform}-${process.arch}`;
  const names = process.platform === 'linux' ? [`linux-${process.arch}`, `linux-${process.arch}-musl`] : [platform];
  for (const name of names) {
    const bin = join(MODULES, `claude-agent-sdk-${name}`, process.platform === 'win32' ? 'claude.exe' : 'claude');
    if (existsSync(bin)) return bin;
  }
  return undefined;
}

/** Why the SDK cannot run its Claude Code here, or `undefined` when `claude --version` of its binary answers. */
export function claudeAgentSdkUnavailable(): string | undefined {
  if (!existsSync(join(MODULES, 'claude-agent-sdk', 'package.json'))) return '@anthropic-ai/claude-agent-sdk is not installed';
  const bin = claudeAgentSdkBinary();
  if (bin === undefined) return `the SDK's Claude Code binary for ${process.platform}-${process.arch} is not installed (an optional dependency)`;
  const run = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, DISABLE_AUTOUPDATER: '1' } });
  if (run.error !== undefined) return `${bin} --version did not complete (${run.error.message})`;
  if (run.status !== 0) return `${bin} --version exited ${String(run.status)}: ${run.stderr.trim().slice(0, 200)}`;
  return undefined;
}
