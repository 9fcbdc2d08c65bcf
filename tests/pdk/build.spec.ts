// The compiler and its CLI: reproducible output, hook.json, build errors that
// name file and line, `hookbox build`, and a `hookbox init` project's own test.
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookManifestSchema } from '../../host/config/manifest.ts';
import { BuildError } from '../../host/errors.ts';
import { registerBuildCommand } from '../../host/cli/commands/build.ts';
import { registerInitCommand, SCAFFOLD_FILES } from '../../host/cli/commands/init.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { ALL_SEAMS_ENTRY, buildInto, tempDir, writeHookSource } from './support.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup?.());

const hookSource = (name: string, source: string): Promise<string> => writeHookSource(dir, name, source);

async function buildError(entry: string): Promise<string> {
  const error = await buildHook({ entry, outFile: join(dir, 'out', 'x.wasm') }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuildError);
  return (error as Error).message;
}

describe('buildHook', () => {
  it('is reproducible: two builds are byte-identical', async () => {
    const a = await buildInto(dir, ALL_SEAMS_ENTRY, 'a');
    const b = await buildInto(dir, ALL_SEAMS_ENTRY, 'b');
    expect(a.sha256).toBe(b.sha256);
    expect(Buffer.compare(await readFile(a.wasmPath), await readFile(b.wasmPath))).toBe(0);
  });

  it('writes a valid hook.json beside the wasm, pinning its sha256 and seams', async () => {
    const built = await buildInto(dir, ALL_SEAMS_ENTRY, 'manifest');
    expect(built.manifestPath).toBe(join(dir, 'manifest', 'hook.json'));
    const manifest = HookManifestSchema.parse(JSON.parse(await readFile(built.manifestPath as string, 'utf8')));
    expect(manifest).toMatchObject({ name: 'all-seams', wasm: 'hook.wasm', sha256: built.sha256, seams: built.seams });
    expect(manifest.limits?.instructionBudget).toBeGreaterThan(0);
  });

  it('reports TypeScript errors with file:line:col', async () => {
    const entry = await hookSource(
      'type-error',
      `import { defineHook, deny } from PDK;\nexport default defineHook({\n  preTool: (p) => deny(p.toolName.length),\n});\n`,
    );
    const message = await buildError(entry);
    expect(message).toContain(`${entry}:3:24: error TS2345`);
  });

  it('reports an export that is not a function with file:line:col', async () => {
    const entry = await hookSource('not-a-function', `export function pre_tool() { return 0; }\nexport const VERSION = 3;\n`);
    const message = await buildError(entry);
    expect(message).toContain(`${entry}:2:14:`);
    expect(message).toContain('export "VERSION" is not a function');
  });

  it('reports a top-level throw during pre-initialization with file and line', async () => {
    const entry = await hookSource(
      'top-level-throw',
      `import { defineHook } from PDK;\nconst rules = JSON.parse('{"ok": true}');\nif (rules.ok) throw new Error('no config at build time');\nexport default defineHook({});\n`,
    );
    const message = await buildError(entry);
    expect(message).toContain(`${entry}:3:`);
    expect(message).toContain('Error: no config at build time');
  });

  it('tells a hook that uses the host in top-level code why that fails; top-level logging is fine', async () => {
    const entry = await hookSource(
      'top-level-host',
      `import { defineHook } from PDK;\nconsole.log('loading');\nconst rules = Config.get('rules');\nexport default defineHook({ sessionStart: () => ({ additionalContext: rules ?? '' }) });\n`,
    );
    const message = await buildError(entry);
    expect(message).toContain(`${entry}:3:`);
    expect(message).toContain('Config.get is not available in top-level code');
  });
});

describe('hookbox build / hookbox init', () => {
  it('`hookbox build <entry> -o out.wasm --json` builds and reports the result', async () => {
    const out = join(dir, 'cli', 'guard.wasm');
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (printed.push(chunk), true)) as typeof process.stdout.write;
    try {
      const program = new Command('hookbox').exitOverride();
      registerBuildCommand(program);
      await program.parseAsync(['build', ALL_SEAMS_ENTRY, '-o', out, '--json', '--no-typecheck'], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    const result = JSON.parse(printed.join('')) as { wasmPath: string; manifestPath: string };
    expect(result.wasmPath).toBe(out);
    expect(result.manifestPath).toBe(join(dir, 'cli', 'hook.json'));
  });

  it('`hookbox init` scaffolds a project whose own test builds and calls its hook', async () => {
    const project = join(dir, 'my-guard');
    const program = new Command('hookbox').exitOverride();
    registerInitCommand(program);
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      await program.parseAsync(['init', project], { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(resolve(project, pkg.devDependencies.hookbox?.replace(/^file:/, '') ?? '')).toBe(REPO);
    // init ran `npm install`, which links this checkout (a file: dependency).
    expect(realpathSync(join(project, 'node_modules', 'hookbox'))).toBe(REPO);
    const { stdout } = await promisify(execFile)(process.execPath, ['--test', 'hook.test.mjs'], { cwd: project, timeout: 240_000 });
    expect(stdout).toContain('# pass 5');
    expect(stdout).toContain('# fail 0');
    await expect(registerAndInitAgain(project)).rejects.toThrow(/not empty/);
    for (const file of SCAFFOLD_FILES) expect(existsSync(join(project, file)), file).toBe(true);
    // An `npm install` and a hook build in a child `node --test`: 60 s was not enough at load average 8–14 on 2 cores.
  }, 480_000);
});

async function registerAndInitAgain(project: string): Promise<void> {
  const program = new Command('hookbox').exitOverride();
  registerInitCommand(program);
  await program.parseAsync(['init', project], { from: 'user' });
}
