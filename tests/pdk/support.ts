/** Shared set-up for the PDK suites: fixture paths, one-off builds into a temp dir, sessions. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

const PDK_INDEX = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'pdk', 'index.ts');

/** Writes a one-file hook `<dir>/src/<name>/hook.ts` whose `PDK` placeholders import the PDK; returns its entry. */
export async function writeHookSource(dir: string, name: string, source: string): Promise<string> {
  const entry = join(dir, 'src', name, 'hook.ts');
  await mkdir(dirname(entry), { recursive: true });
  await writeFile(entry, source.replaceAll('PDK', JSON.stringify(PDK_INDEX)));
  return entry;
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
