import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadManifest } from '../../config/index.ts';
import { ConfigError } from '../../errors.ts';
import { type WasmInspection, inspectWasm } from '../../runner/index.ts';
import { printable, printableJson } from '../../text/index.ts';

/** What `hookbox inspect --json` prints. */
export interface InspectReport extends WasmInspection {
  readonly file: string;
  /** Present when a hook.json was inspected. */
  readonly manifest?: { readonly file: string; readonly name: string; readonly version: string; readonly seams: readonly string[]; readonly sha256Matches: boolean };
}

/** Registers `hookbox inspect <hook.wasm|hook.json> [--json]`. */
export function registerInspectCommand(program: Command): void {
  program
    .command('inspect')
    .description('show a hook module: exports, handled seams, imports, memory limits, sha256, size')
    .argument('<file>', 'a hook .wasm or its hook.json manifest')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: { json?: boolean }) => {
      const report = await inspectHook(file);
      process.stdout.write(options.json === true ? `${printableJson(report)}\n` : describe(report));
    });
}

/** Inspects a `.wasm` (or the wasm a `hook.json` names) without running it. */
export async function inspectHook(file: string): Promise<InspectReport> {
  const absolute = path.resolve(file);
  if (absolute.endsWith('.json')) {
    const manifest = loadManifest(absolute);
    const wasmFile = path.resolve(path.dirname(absolute), manifest.wasm);
    const inspection = inspectWasm(await readBytes(wasmFile), wasmFile);
    return {
      file: wasmFile,
      ...inspection,
      manifest: { file: absolute, name: manifest.name, version: manifest.version, seams: manifest.seams, sha256Matches: manifest.sha256 === inspection.sha256 },
    };
  }
  return { file: absolute, ...inspectWasm(await readBytes(absolute), absolute) };
}

async function readBytes(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
}

/** Names of exports and imports (and the manifest's fields) come from the hook's bytes: each is made printable. */
function describe(report: InspectReport): string {
  const p = (text: string): string => printable(text, { maxLength: 200 });
  const memory =
    report.memory === null
      ? 'none'
      : `min ${report.memory.min} pages, max ${report.memory.max === null ? 'none (capped at load)' : `${report.memory.max} pages`}${report.memory.imported ? ', imported' : ''}${report.memory.shared ? ', shared' : ''}`;
  const lines = [
    `file:     ${p(report.file)}`,
    `size:     ${report.sizeBytes} bytes`,
    `sha256:   ${report.sha256}`,
    `seams:    ${report.seams.join(', ') || 'none'}`,
    `exports:  ${report.exports.map((e) => `${p(e.name)} (${e.kind})`).join(', ') || 'none'}`,
    `imports:  ${report.imports.map((i) => `${p(i.module)} ${p(i.name)} (${i.kind})`).join(', ') || 'none'}`,
    `memory:   ${memory}`,
    ...(report.imports.some((i) => i.module === 'wasi_snapshot_preview1' && i.name === 'clock_time_get')
      ? ['clock:    reads the clock (WASI clock_time_get); without the operator\'s "clock": true grant it sees time 0 (Date.now() is 0, 1970-01-01)']
      : []),
    ...(report.hasStartFunction ? ['start:    has a start function'] : []),
    ...(report.manifest === undefined
      ? []
      : [`manifest: ${p(report.manifest.name)}@${p(report.manifest.version)}, seams ${report.manifest.seams.join(', ')}, sha256 ${report.manifest.sha256Matches ? 'matches' : 'DOES NOT MATCH'}`]),
  ];
  return `${lines.join('\n')}\n`;
}
