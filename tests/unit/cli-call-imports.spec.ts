/**
 * What `hookbox call` loads before it can decide: the static import graph of
 * its command module, as esbuild sees it when it bundles the CLI (the same
 * resolution the bin's bundle uses). Each module kept out here is code a call
 * never runs but every call used to load: the agent bridges with their
 * importers (smol-toml) and rule compiler (picomatch), the OpenTelemetry API
 * (telemetry is off unless OTEL_* turns it on), hookbox's WASI implementation
 * (it runs on the worker), the config barrel, and msgpackr's entry that
 * probes for a native addon.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ENTRY = 'host/cli/commands/call.ts';

let graph: Set<string>;

/** Every input reachable from `entry` through static imports (dynamic imports load on use, so they do not count). */
function staticClosure(metafile: esbuild.Metafile, entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external || imported.kind !== 'import-statement' || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return seen;
}

beforeAll(async () => {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'node',
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  });
  // Paths relative to the root, node_modules included whether or not it is a symlink.
  graph = new Set([...staticClosure(result.metafile, ENTRY)].map((file) => file.replace(/^(\.\.\/)+[^]*?node_modules\//, 'node_modules/')));
}, 60_000);

describe('hookbox call: the modules it loads', () => {
  it('loads what a call needs: the runner, the seams, the hook-file loader and the config layers', () => {
    for (const file of ['host/runner/runner.ts', 'host/seams/index.ts', 'host/config/load-hooks.ts', 'host/config/layered-config.ts', 'host/events/invoke.ts']) {
      expect(graph, file).toContain(file);
    }
  });

  it.each([
    ['the bridges barrel (importers, shell hooks, transcripts)', 'host/bridges/index.ts'],
    ['the permission-rule compiler', 'host/bridges/permission-rules.ts'],
    ['shell hooks', 'host/bridges/shell-hook.ts'],
    ['the config barrel', 'host/config/index.ts'],
    ['the event bus', 'host/events/bus.ts'],
    ['the telemetry recorder', 'host/telemetry/recorder.ts'],
    ["hookbox's WASI implementation (worker side)", 'host/runner/wasi/index.ts'],
  ])('does not load %s', (_what, file) => {
    expect(graph).not.toContain(file);
  });

  it.each([
    ['picomatch', 'node_modules/picomatch/'],
    ['smol-toml', 'node_modules/smol-toml/'],
    ['the OpenTelemetry API', 'node_modules/@opentelemetry/api/'],
    ["msgpackr's native-addon probe", 'node_modules/msgpackr/node-index.js'],
  ])('does not load %s', (_what, prefix) => {
    expect([...graph].filter((file) => file.startsWith(prefix))).toEqual([]);
  });
});
