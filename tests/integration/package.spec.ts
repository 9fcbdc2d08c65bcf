/**
 * hookbox as a consumer gets it: `npm pack`, the tarball unpacked into a
 * scratch project's node_modules, imported from plain JavaScript (node, no
 * tsx) and type-checked from TypeScript, and the README's "Embedding hookbox"
 * example run against a real wasm hook.
 *
 * Dependencies: this machine has no registry packuments in the npm cache, so
 * `npm install --offline <tarball>` cannot resolve them. The test does what
 * npm would for the package itself (unpack it into node_modules/hookbox) and
 * links each of its declared dependencies to this checkout's installed copy.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs module without types
import { freshBuild } from '../../host/cli/fresh-build.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
let scratch: string;
let project: string;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
}

beforeAll(() => {
  // `npm pack` would run `prepare` (the build); build only when dist/ is stale, then pack without scripts.
  if ((freshBuild as () => URL | undefined)() === undefined) run(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], ROOT);
  scratch = mkdtempSync(path.join(tmpdir(), 'hookbox-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT)) as { filename: string }[];
  const tarball = path.join(scratch, packed[0]!.filename);

  project = path.join(scratch, 'consumer');
  const installed = path.join(project, 'node_modules', 'hookbox');
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], scratch);
  for (const dep of [...Object.keys(pkg.dependencies), '@types/node']) {
    const link = path.join(project, 'node_modules', dep);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', dep), link, 'dir');
  }
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
}, 900_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed package, as a consumer installs it', () => {
  it('ships compiled JS and declarations, and the sources hooks are built from; not the tests', () => {
    const files = run('tar', ['-tzf', path.join(scratch, `hookbox-${pkg.version}.tgz`)], scratch).split('\n');
    expect(files).toContain('package/dist/host/index.js');
    expect(files).toContain('package/dist/host/index.d.ts');
    expect(files).toContain('package/dist/pdk/index.d.ts');
    expect(files).toContain('package/dist/host/runner/worker-bootstrap.mjs');
    expect(files).toContain('package/dist/bin/main.js');
    // The command client answers closed from its own table (no TypeScript): it must ship with it.
    expect(files).toContain('package/host/cli/hook-closed.cjs');
    expect(files).toContain('package/dist/bin/worker-bootstrap.mjs');
    expect(files).toContain('package/pdk/runtime/dispatch.ts');
    expect(files).toContain('package/pdk/engine/src/engine.c');
    expect(files.some((file) => file.startsWith('package/tests/'))).toBe(false);
    expect(files.some((file) => file.endsWith('.wasm'))).toBe(false);
  });

  it('imports from plain JavaScript (no TypeScript loader); private modules are not exported', () => {
    const script = `
      import * as hookbox from 'hookbox';
      import { defineHook, deny } from 'hookbox/pdk';
      const hook = defineHook({ preTool: () => deny('no') });
      let privateImport = 'exported';
      try { await import('hookbox/dist/host/runner/pool.js'); } catch (error) { privateImport = error.code; }
      console.log(JSON.stringify({
        api: ['HookRunner', 'SeamBus', 'loadOperatorConfig', 'nativeHook', 'Session'].map((name) => typeof hookbox[name]),
        version: hookbox.HOOKBOX_VERSION,
        exports: Object.keys(hook.exports),
        deny: deny('no'),
        privateImport,
      }));`;
    writeFileSync(path.join(project, 'plain.mjs'), script);
    const out = JSON.parse(run(process.execPath, ['plain.mjs'], project)) as Record<string, unknown>;
    expect(out).toEqual({
      api: ['function', 'function', 'function', 'function', 'function'],
      version: pkg.version,
      exports: ['pre_tool'],
      deny: { action: 'deny', reason: 'no' },
      privateImport: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });

  it('runs the installed bin from the CLI bundle (the package ships no host/ TypeScript to fall back to)', () => {
    const bin = path.join(project, 'node_modules', 'hookbox', 'host', 'cli', 'hookbox.mjs');
    expect(run(process.execPath, [bin, '--version'], project).trim()).toBe(pkg.version);
    expect(run(process.execPath, [bin, 'call', '--help'], project)).toContain('Usage: hookbox call [options] <hook>');
  });

  it('type-checks a TypeScript consumer against the shipped declarations', () => {
    writeFileSync(
      path.join(project, 'consumer.ts'),
      `import { HookRunner, SeamBus, loadOperatorConfig, nativeHook, type PreToolDecision, type WasmHookSpec } from 'hookbox';
import { defineHook, deny, type HookHandlers } from 'hookbox/pdk';

const handlers: HookHandlers = { preTool: (payload) => (payload.toolName === 'bash' ? deny('no shell') : undefined) };
export const hook = defineHook(handlers);
const spec: WasmHookSpec = { name: 'guard', wasm: 'guard.wasm', limits: { timeoutMs: 500 } };
export async function gate(): Promise<PreToolDecision> {
  const runner = await HookRunner.start({ workers: 1 });
  try {
    const bus = new SeamBus();
    bus.use(await runner.load(spec));
    bus.use(nativeHook({ name: 'native', handlers: { 'tools/pre-execute': () => ({ action: 'allow' }) } }));
    void loadOperatorConfig;
    const { decision } = await bus.dispatch('tools/pre-execute', { toolCallId: 'c', toolName: 'bash', arguments: {} }, { id: 's', turn: 1, step: 1, cwd: '/' });
    return decision;
  } finally {
    await runner.close();
  }
}
// @ts-expect-error — a decision the seam does not have
export const wrong: PreToolDecision = { action: 'block', reason: 'x' };
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], skipLibCheck: true },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(run(process.execPath, [tsc, '-p', 'tsconfig.json'], project)).toBe('');
  }, 300_000);

  it('runs the README\'s embedding example: a real wasm hook through a SeamBus', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const example = /<!-- embedding-example:begin -->\s*```js\n([\s\S]*?)```\s*<!-- embedding-example:end -->/.exec(readme)?.[1];
    expect(example, 'README.md has the embedding example between its markers').toBeDefined();
    writeFileSync(path.join(project, 'embed.mjs'), example!);
    // guard-bash, built from source by tests/global-setup.ts.
    const manifest = path.join(ROOT, 'examples-hooks', 'guard-bash', 'dist', 'hook.json');
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'guard', manifest }] }));
    const out = JSON.parse(run(process.execPath, ['embed.mjs'], project)) as { decision: PreToolDecisionLike; hooks: string[] };
    expect(out.hooks).toEqual(['guard']);
    expect(out.decision.action).toBe('deny');
    expect(out.decision.reason).toMatch(/guard-bash/);
  });

  it('documents every export of both entries (TSDoc)', () => {
    const entries = ['dist/host/index.d.ts', 'dist/pdk/index.d.ts'].map((file) => path.join(project, 'node_modules', 'hookbox', file));
    const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
    const checker = program.getTypeChecker();
    const undocumented: string[] = [];
    for (const entry of entries) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
      for (const symbol of checker.getExportsOfModule(module)) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') {
          undocumented.push(`${path.basename(path.dirname(entry))}: ${symbol.name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  }, 120_000);
});

interface PreToolDecisionLike {
  readonly action: string;
  readonly reason?: string;
}
