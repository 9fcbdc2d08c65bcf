/**
 * hookbox installed the way a user installs it (tests/helpers/packed-install.ts):
 * `npm pack`, a real `npm i -D <tarball>` into a fresh project with a private
 * HOME, then what the README tells a user to do, with `npx hookbox …`:
 * `--help`, `init` and the scaffold's own `npm test`, `build` (the shipped
 * engine, nothing compiled), `call`, `setup claude-code` and `doctor`, the
 * Claude Code command client deciding with no server, one real Claude Code
 * run, the README's five-minute path as written, the library from plain
 * JavaScript and TypeScript, and a global install.
 *
 * With `HOOKBOX_TEST_NODE` set (.ci/run: Node 22 and 24), only the smoke part
 * runs, on that Node: install, `--help`, init + its test, build, call, the
 * command client. Timings go to stderr (`[package] …`) for the closing notes.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeClaude, runClaude } from '../helpers/claude-code.ts';
import { MockAnthropic } from '../helpers/mock-anthropic.ts';
import { skipUnless } from '../helpers/skips.ts';
import { type Packed, ROOT, Scratch, TEST_NODE, checkoutPackage, packCheckout, readmeQuickPath } from '../helpers/packed-install.ts';

const SMOKE_ONLY = process.env.HOOKBOX_TEST_NODE !== undefined;
const pkg = checkoutPackage();
const timings: Record<string, number> = {};
let scratch: Scratch;
let packed: Packed;
let project: string;

const note = (what: string, ms: number): void => {
  timings[what] = Math.round(ms);
};
const npx = (args: readonly string[], cwd = project, input?: string) => scratch.ok('npx', ['--no-install', 'hookbox', ...args], cwd, { input });

/** A PreToolUse event as Claude Code sends it to a command hook. */
function preToolUse(cwd: string, command: string, id: string): string {
  return JSON.stringify({
    session_id: 'packed-install',
    transcript_path: path.join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'step' },
    tool_use_id: id,
  });
}

/** The command hookbox's setup registered for PreToolUse in `.claude/settings.json`. */
function preToolCommand(dir: string): string {
  const settings = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { type: string; command?: string }[] }[]>;
  };
  const command = settings.hooks.PreToolUse?.flatMap((group) => group.hooks).find((hook) => hook.type === 'command')?.command;
  if (command === undefined) throw new Error(`no PreToolUse command hook in ${dir}/.claude/settings.json`);
  return command;
}

beforeAll(() => {
  scratch = new Scratch();
  let started = performance.now();
  packed = packCheckout(scratch.dir);
  note('pack', performance.now() - started);
  project = scratch.project('consumer');
  started = performance.now();
  scratch.ok('npm', ['i', '-D', packed.tarball], project, { timeoutMs: 900_000 });
  note('npm i -D', performance.now() - started);
}, 1_800_000);

afterAll(() => {
  process.stderr.write(
    `[package] node ${TEST_NODE === process.execPath ? process.version : TEST_NODE}; tarball ${(packed?.size / 1024).toFixed(0)} KiB packed, ` +
      `${(packed?.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed?.files.length} files; ms: ${JSON.stringify(timings)}\n`,
  );
  // The scratch folder is left for a failing run to be looked at only when asked.
  if (scratch !== undefined && process.env.HOOKBOX_KEEP_SCRATCH === undefined) {
    scratch.ok('rm', ['-rf', scratch.dir], '/');
  }
});

describe('hookbox installed from its packed tarball (real npm i)', () => {
  it('ships the build, the engine and the PDK sources; not the tests, the host sources or the engine toolchain', () => {
    const files = new Set(packed.files);
    for (const file of ['dist/bin/main.js', 'dist/host/index.js', 'dist/host/index.d.ts', 'dist/pdk/index.d.ts', 'dist/host/serve/in-process.js', 'dist/engine/engine.wasm', 'dist/engine/engine.json', 'pdk/index.ts', 'pdk/runtime/dispatch.ts', 'host/cli/hookbox.mjs', 'host/fresh-build.mjs', 'host/cli/hookbox-hook.cjs', 'host/cli/hook-closed.cjs', 'host/listener-proof.cjs', 'host/agents/plugin-client.mjs', 'host/agents/pi/extension.mjs', 'host/agents/opencode/plugin.mjs', 'host/agents/kilo/plugin.mjs']) {
      expect(files, file).toContain(file);
    }
    expect(packed.files.filter((file) => file.startsWith('tests/') || (file.startsWith('host/') && file.endsWith('.ts')))).toEqual([]);
    // The engine, and the catalog's one module holding every policy, built by hookbox's build (nothing compiles at the user's).
    expect(packed.files.filter((file) => file.endsWith('.wasm')).sort()).toEqual(['dist/catalog/policies.wasm', 'dist/engine/engine.wasm']);
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', 'hookbox', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(installed.private).toBeUndefined();
    // The engine's toolchain and QuickJS's sources are the checkout's, not the user's.
    for (const dev of ['@yowasp/clang', 'qjsc', 'tsx']) expect(existsSync(path.join(project, 'node_modules', dev)), dev).toBe(false);
  });

  it('npx hookbox --help and --version run the shipped bundle', () => {
    const help = npx(['--help']);
    note('--help', help.ms);
    expect(help.stdout).toContain('Usage: hookbox');
    expect(npx(['--version']).stdout.trim()).toBe(pkg.version);
  });

  it('npx hookbox init scaffolds a hook project inside the user project; its own npm test passes', () => {
    const init = npx(['init', 'hooks/my-guard']);
    expect(init.stdout).toContain('hooks/my-guard/hook.ts');
    const scaffold = JSON.parse(readFileSync(path.join(project, 'hooks', 'my-guard', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(scaffold.devDependencies.hookbox).toBe(`^${pkg.version}`);
    const started = performance.now();
    const test = scratch.ok('npm', ['test'], path.join(project, 'hooks', 'my-guard'));
    note('scaffold npm test', performance.now() - started);
    // node --test's summary: `# pass 5` on Node 20 and 22, `ℹ pass 5` on 24.
    expect(test.stdout).toMatch(/^[#ℹ] pass 5$/m);
    expect(test.stdout).toMatch(/^[#ℹ] fail 0$/m);
  }, 600_000);

  it("npx hookbox test runs a catalog policy's table from the user's project: exit 0 passing, 1 on a failing case", () => {
    const dir = path.join(project, 'policy-table');
    scratch.ok('mkdir', ['-p', dir], project);
    writeFileSync(path.join(dir, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'protect', policy: 'protected-paths', config: { paths: ['.env', '.github/workflows/**'] } }] }));
    const cases = [
      { name: 'no .env', seam: 'tools/pre-execute', payload: { toolName: 'write_file', arguments: { path: '.env', content: 'x' } }, expect: { action: 'deny', reason: '^protected-paths: write:' } },
      { name: 'no rm of a workflow', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'rm .github/workflows/ci.yml' } }, expect: { action: 'deny' } },
      { name: 'src is fine', seam: 'tools/pre-execute', payload: { toolName: 'write_file', arguments: { path: 'src/a.ts', content: 'x' } }, expect: { action: 'allow' } },
    ];
    writeFileSync(path.join(dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases }));
    const passing = scratch.run('npx', ['--no-install', 'hookbox', 'test'], dir);
    note('test', passing.ms);
    expect(passing.stderr).toBe('');
    expect(passing.status).toBe(0);
    expect(passing.stdout).toContain('3 passed, 0 failed');
    expect(passing.stdout).toContain('protect (protected-paths): 2/5 rules — write 1, delete 1');
    // Nothing was compiled for it: no engine or hook build in the user's cache.
    expect(existsSync(path.join(scratch.home, '.cache', 'hookbox', 'examples'))).toBe(false);
    writeFileSync(path.join(dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [...cases, { ...cases[2], name: 'wrongly expected', expect: { action: 'deny' } }] }));
    const failing = scratch.run('npx', ['--no-install', 'hookbox', 'test'], dir);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('FAIL  wrongly expected: allow');
  }, 300_000);

  it('npx hookbox build uses the shipped engine (nothing compiled, no cache in node_modules), and call decides with it', () => {
    const build = npx(['build', 'hooks/my-guard/hook.ts', '-o', 'hooks/my-guard/dist/hook.wasm']);
    note('first build', build.ms);
    expect(build.stderr).not.toMatch(/building the JS engine|compiling quickjs/);
    expect(existsSync(path.join(project, 'hooks', 'my-guard', 'dist', 'hook.json'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules', 'hookbox', '.cache'))).toBe(false);
    expect(readdirSync(path.join(scratch.home, '.cache', 'hookbox'))).not.toEqual([]);

    writeFileSync(path.join(project, 'payload.json'), JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } }));
    const call = npx(['call', 'hooks/my-guard/dist/hook.json', '--seam', 'tools/pre-execute', '--payload', 'payload.json', '--json']);
    note('call', call.ms);
    expect(JSON.parse(call.stdout)).toMatchObject({ decision: { action: 'deny', reason: 'recursive delete of / or ~' }, fault: null });
  }, 600_000);

  it('setup claude-code writes a command hook that decides with no server running: denies rm -rf /, allows ls', () => {
    writeFileSync(path.join(project, 'hookbox.config.json'), `${JSON.stringify({ hooks: [{ name: 'my-guard', manifest: 'hooks/my-guard/dist/hook.json' }] }, null, 2)}\n`);
    npx(['setup', 'claude-code']);
    const command = preToolCommand(project);
    // As Claude Code runs a command hook: through sh, in the project, with CLAUDE_PROJECT_DIR set.
    const asClaude = { CLAUDE_PROJECT_DIR: project };
    expect(command).not.toContain(scratch.dir); // portable: no machine path in a file teams commit
    const denied = scratch.run('sh', ['-c', command], project, { input: preToolUse(project, 'rm -rf /', 'u1'), env: asClaude });
    note('hook client in-process', denied.ms);
    expect(`${denied.stdout}${denied.stderr}`).toContain('recursive delete of / or ~');
    expect(denied.status === 2 || /"permissionDecision":\s*"deny"/.test(denied.stdout), `exit ${denied.status}: ${denied.stdout}${denied.stderr}`).toBe(true);
    const allowed = scratch.run('sh', ['-c', command], project, { input: preToolUse(project, 'ls', 'u2'), env: asClaude });
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toMatch(/"deny"/);
  }, 600_000);

  it.skipIf(SMOKE_ONLY)('npx hookbox demo runs: the example hooks built into the user cache, the package left as installed', () => {
    const demo = npx(['demo']);
    note('demo (first)', demo.ms);
    expect(demo.stdout).toContain('session log');
    expect(demo.stdout).toContain('npx hookbox replay');
    expect(readdirSync(path.join(scratch.home, '.cache', 'hookbox', 'examples')).sort()).toEqual(['audit-trail', 'guard-bash', 'prompt-guard', 'secret-redactor', 'session-context', 'test-gate']);
    expect(existsSync(path.join(project, 'node_modules', 'hookbox', 'examples-hooks', 'guard-bash', 'dist'))).toBe(false);
  }, 600_000);

  it.skipIf(SMOKE_ONLY)('doctor claude-code is green on the set-up project', () => {
    const doctor = scratch.run('npx', ['--no-install', 'hookbox', 'doctor', 'claude-code'], project);
    expect(doctor.status, `${doctor.stdout}${doctor.stderr}`).toBe(0);
  }, 300_000);

  it.skipIf(SMOKE_ONLY)('setup claude-code --transport http keeps the token out of the committed settings; .hookbox/ is git-ignored', () => {
    npx(['setup', 'claude-code', '--transport', 'http']);
    const token = readFileSync(path.join(scratch.home, '.hookbox', 'serve-token'), 'utf8').trim();
    expect(token.length).toBeGreaterThan(16);
    expect(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8')).not.toContain(token);
    const ignored = readFileSync(path.join(project, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('.hookbox/');
    if (readFileSync(path.join(project, '.claude', 'settings.local.json'), 'utf8').includes(token)) expect(ignored).toContain('.claude/settings.local.json');
    // Back to the command transport for what follows.
    npx(['setup', 'claude-code', '--transport', 'http', '--remove']);
    npx(['setup', 'claude-code']);
    expect(preToolCommand(project)).toContain('claude-code');
  }, 300_000);

  // The smoke run on another Node runs no agent; otherwise Claude Code is a devDependency, so CI may not skip it.
  const claude = SMOKE_ONLY ? { ok: false as const, reason: 'the smoke run on another Node runs no agent' } : probeClaude();
  const skipClaude = SMOKE_ONLY || skipUnless('the installed package inside the real Claude Code', claude.ok ? undefined : claude.reason, { required: '@anthropic-ai/claude-code' });
  it.skipIf(skipClaude)(`the real Claude Code decides through the installed package${claude.ok ? '' : ` (skipped, because ${claude.reason})`}`, async () => {
    const mock = new MockAnthropic();
    await mock.start();
    try {
      const target = path.join(project, 'pwned.txt');
      writeFileSync(
        path.join(project, 'hookbox.config.json'),
        `${JSON.stringify({ hooks: [{ name: 'my-guard', manifest: 'hooks/my-guard/dist/hook.json', config: { denyPattern: 'pwned' } }] }, null, 2)}\n`,
      );
      mock.script([{ text: 'Creating it.', toolUses: [{ name: 'Bash', input: { command: `touch ${target}`, description: 'step' } }] }, { text: 'done' }]);
      const run = await runClaude({ project, home: scratch.home, mock, prompt: 'create pwned.txt', timeoutMs: 240_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(existsSync(target)).toBe(false);
      expect(mock.shown()).toContain('the command matches the configured denyPattern');
    } finally {
      await mock.close();
    }
  }, 300_000);

  it.skipIf(SMOKE_ONLY)('imports from plain JavaScript (no TypeScript loader); private modules are not exported', () => {
    writeFileSync(
      path.join(project, 'plain.mjs'),
      `import * as hookbox from 'hookbox';
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
      }));`,
    );
    expect(JSON.parse(scratch.ok(TEST_NODE, ['plain.mjs'], project).stdout)).toEqual({
      api: ['function', 'function', 'function', 'function', 'function'],
      version: pkg.version,
      exports: ['pre_tool'],
      deny: { action: 'deny', reason: 'no' },
      privateImport: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });

  it.skipIf(SMOKE_ONLY)('type-checks a TypeScript consumer against the shipped declarations', () => {
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
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [], skipLibCheck: true },
        files: ['consumer.ts'],
      }),
    );
    // The user's TypeScript is the one hookbox depends on, installed beside it.
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(scratch.run(TEST_NODE, [tsc, '-p', 'tsconfig.json'], project).stdout).toBe('');
  }, 300_000);

  it.skipIf(SMOKE_ONLY)("runs the README's embedding example: a real wasm hook through a SeamBus", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const docs = [readme, ...['docs/guides/embedding.md'].filter((file) => existsSync(path.join(ROOT, file))).map((file) => readFileSync(path.join(ROOT, file), 'utf8'))];
    const example = docs.map((text) => /<!-- embedding-example:begin -->\s*```js\n([\s\S]*?)```\s*<!-- embedding-example:end -->/.exec(text)?.[1]).find((found) => found !== undefined);
    expect(example, 'README.md or docs/guides/embedding.md has the embedding example between its markers').toBeDefined();
    writeFileSync(path.join(project, 'embed.mjs'), example!);
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'guard', manifest: path.join(ROOT, 'examples-hooks', 'guard-bash', 'dist', 'hook.json') }] }));
    const out = JSON.parse(scratch.ok(TEST_NODE, ['embed.mjs'], project).stdout) as { decision: { action: string; reason?: string }; hooks: string[] };
    expect(out.hooks).toEqual(['guard']);
    expect(out.decision.action).toBe('deny');
    expect(out.decision.reason).toMatch(/guard-bash/);
  });

  it.skipIf(SMOKE_ONLY)('documents every export of both entries (TSDoc)', () => {
    const entries = ['dist/host/index.d.ts', 'dist/pdk/index.d.ts'].map((file) => path.join(project, 'node_modules', 'hookbox', file));
    const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
    const checker = program.getTypeChecker();
    const undocumented: string[] = [];
    for (const entry of entries) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
      for (const symbol of checker.getExportsOfModule(module)) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') undocumented.push(`${path.basename(path.dirname(entry))}: ${symbol.name}`);
      }
    }
    expect(undocumented).toEqual([]);
  }, 120_000);

  const quickPath = readmeQuickPath();
  let fresh: string | undefined;
  it.skipIf(SMOKE_ONLY)("runs the README's five-minute path as written, in a fresh project", () => {
    expect(quickPath, 'README.md has a ```sh block between <!-- quick-path:start --> and <!-- quick-path:end -->').toBeDefined();
    // Before the registry has it, the README installs the tarball this very test installs.
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain(`npm i -D /path/to/hookbox/${path.basename(packed.tarball)}`);
    fresh = scratch.project('quick-path');
    const script = quickPath!.map((line) => (/^\s*npm i(nstall)? -D hookbox\s*(#.*)?$/.test(line) ? `npm i -D ${JSON.stringify(packed.tarball)}` : line));
    expect(script.some((line) => line.includes(packed.tarball)), 'the path starts by installing hookbox with `npm i -D hookbox`').toBe(true);
    const ran = scratch.run('bash', ['-e', '-c', script.join('\n')], fresh, { timeoutMs: 900_000 });
    expect(ran.status, `the five-minute path failed:\n${script.join('\n')}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`).toBe(0);
  }, 1_200_000);

  it.skipIf(SMOKE_ONLY)("a teammate's clone of the five-minute project (no dist/): closed, naming the command; after it, doctor is green and call decides", () => {
    expect(fresh, 'the five-minute path ran first').toBeDefined();
    const clone = fresh as string;
    const command = 'hookbox build --config hookbox.config.json';
    // init wired it as the project's prepare script: what the teammate's `npm ci` runs.
    expect((JSON.parse(readFileSync(path.join(clone, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts?.prepare).toBe(command);
    scratch.ok('rm', ['-rf', path.join(clone, 'hooks', 'my-guard', 'dist')], clone);
    const closed = scratch.run('npx', ['--no-install', 'hookbox', 'doctor', 'claude-code'], clone);
    expect(closed.status).not.toBe(0);
    expect(`${closed.stdout}${closed.stderr}`).toContain(`npx ${command}`);
    let started = performance.now();
    npx(['build', '--config', 'hookbox.config.json'], clone);
    note('clone: build --config', performance.now() - started);
    started = performance.now();
    const doctor = scratch.run('npx', ['--no-install', 'hookbox', 'doctor', 'claude-code'], clone);
    note('clone: doctor', performance.now() - started);
    expect(doctor.status, `${doctor.stdout}${doctor.stderr}`).toBe(0);
    const call = npx(['call', 'hooks/my-guard/dist/hook.json', '--seam', 'tools/pre-execute', '--payload', '-'], clone, JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } }));
    expect(call.stdout).toContain('recursive delete of / or ~');
  }, 600_000);

  it.skipIf(SMOKE_ONLY)('installs globally (npm i -g): --help, init outside any project, build', () => {
    const prefix = path.join(scratch.dir, 'global');
    scratch.ok('npm', ['i', '-g', '--prefix', prefix, packed.tarball], scratch.dir, { timeoutMs: 900_000 });
    const env = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${scratch.env.PATH}` };
    expect(scratch.ok('hookbox', ['--help'], scratch.home, { env }).stdout).toContain('Usage: hookbox');
    const init = scratch.ok('hookbox', ['init', 'solo-hook'], scratch.home, { env });
    expect(init.stdout).toContain('npm i -D hookbox');
    scratch.ok('hookbox', ['build', 'solo-hook/hook.ts', '-o', 'solo-hook/dist/hook.wasm'], scratch.home, { env });
    expect(existsSync(path.join(scratch.home, 'solo-hook', 'dist', 'hook.json'))).toBe(true);
  }, 1_200_000);
});
