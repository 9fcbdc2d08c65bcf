/** Shared set-up for the PDK suites: fixture paths, one-off builds into a temp dir, sessions. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHook, type BuildHookResult } from '../../pdk/compiler/index.ts';
import type { SessionInfo } from '../../host/seams/index.ts';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const ALL_SEAMS_ENTRY = join(FIXTURES, 'all-seams', 'hook.ts');
export const RAW_ENTRY = join(FIXTURES, 'raw-extism', 'index.js');

export const SESSION: SessionInfo = { id: 'pdk-test', turn: 1, step: 0, cwd: '/workspace' };

/** A temporary directory removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'hookbox-pdk-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Builds `entry` into `dir/<name>/hook.wasm` (hook.json beside it). */
export function buildInto(dir: string, entry: string, name: string): Promise<BuildHookResult> {
  return buildHook({ entry, outFile: join(dir, name, 'hook.wasm') });
}

/** A pre-tool call payload for the bash tool. */
export function bash(command: string) {
  return { toolCallId: 'call-1', toolName: 'bash', arguments: { command } };
}

interface WasmDescriptor {
  readonly module: string;
  readonly name: string;
  readonly kind: string;
}

/** The WebAssembly API, typed for what these tests use (the project's libs declare no DOM/wasm globals). */
export const wasmApi = (
  globalThis as unknown as {
    WebAssembly: {
      Module: { new (bytes: Uint8Array): object; imports(m: object): WasmDescriptor[]; exports(m: object): WasmDescriptor[] };
      instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
    };
  }
).WebAssembly;
