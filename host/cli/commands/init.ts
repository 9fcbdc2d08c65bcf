import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { HOOK_COMPILER_OPTIONS, jsPdkTypes } from '../../../pdk/compiler/typecheck.ts';
import { ConfigError } from '../../errors.ts';
import { HOOKBOX_VERSION, IS_CHECKOUT, PACKAGE_ROOT } from '../../package.ts';
import { PREPARE_SCRIPT, type PrepareWiring, wirePrepareScript } from '../init-prepare.ts';

/** The files `hookbox init` writes, relative to the project directory. */
export const SCAFFOLD_FILES = ['package.json', 'tsconfig.json', 'hook.ts', 'hook.test.mjs', '.gitignore', 'README.md'] as const;

/**
 * How the scaffold depends on hookbox:
 * - `link`: from a development checkout, by path (`file:`), linked by an offline `npm install`;
 * - `inherited`: from an installed package, by version range; the scaffold lies inside the project
 *   that installed this hookbox, so Node finds it up the folder tree and nothing needs installing
 *   (a `file:` link to an installed package would make npm run its `prepare`, which it does not ship);
 * - `needed`: by version range, outside any project that has it (a global install): the person
 *   installs it there (`npm i -D hookbox`); `hookbox build` works meanwhile (the PDK is the builder's).
 */
type HookboxDependency = { spec: string; install: 'link' | 'inherited' | 'needed' };

function hookboxDependency(target: string): HookboxDependency {
  if (IS_CHECKOUT) return { spec: `file:${relative(target, PACKAGE_ROOT).split('\\').join('/') || '.'}`, install: 'link' };
  const spec = `^${HOOKBOX_VERSION}`;
  const self = realpathSync(PACKAGE_ROOT);
  for (let dir = target; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'hookbox');
    if (existsSync(candidate) && realpathSync(candidate) === self) return { spec, install: 'inherited' };
    if (dirname(dir) === dir) return { spec, install: 'needed' };
  }
}

/**
 * Registers `hookbox init <dir>`: scaffolds a hook project with a worked
 * pre-tool hook and a test that builds it and calls it through the sandbox
 * runner (see {@link hookboxDependency} for how it finds hookbox).
 */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('scaffold a hook project (package.json, hook.ts, tsconfig.json, a test)')
    .argument('<dir>', 'directory to create (may exist if empty)')
    .option('--no-install', 'do not run `npm install` in the new project (from a checkout, it links the checkout)')
    .action(async (dir: string, options: { install: boolean }) => {
      const written = await scaffoldHookProject(dir);
      const shown = relative(process.cwd(), written.dir) || '.';
      process.stdout.write(`created ${written.files.map((f) => join(shown, f)).join(', ')}\n`);
      process.stdout.write(`${describeWiring(wirePrepareScript(written.dir))}\n`);
      if (written.dependency.install === 'needed') {
        process.stdout.write(`next: cd ${shown} && npm i -D hookbox@${written.dependency.spec} && npm test\n`);
      } else if (written.dependency.install === 'link' && options.install) {
        // The only dependency is this checkout, by path: npm links it without the network.
        const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--offline'], { cwd: written.dir, stdio: ['ignore', 2, 2] });
        if (install.status !== 0) throw new ConfigError(`${written.dir}: npm install failed (exit ${install.status}); run it there yourself`);
        process.stdout.write(`next: cd ${shown} && npm test\n`);
      } else if (written.dependency.install === 'link') {
        process.stdout.write(`next: cd ${shown} && npm install && npm test\n`);
      } else {
        process.stdout.write(`next: cd ${shown} && npm test   (hookbox comes from the project around it)\n`);
      }
    });
}

function describeWiring(wiring: PrepareWiring): string {
  const here = (file: string) => relative(process.cwd(), file) || file;
  const fresh = "so that a fresh clone builds the project's hooks (dist/ is not in git)";
  switch (wiring.status) {
    case 'added':
      return `added "prepare": "${PREPARE_SCRIPT}" to ${here(wiring.packageJson)}, ${fresh}`;
    case 'present':
      return `${here(wiring.packageJson)} already builds the hooks in its "prepare" script`;
    case 'other':
      return `${here(wiring.packageJson)} has a "prepare" script of its own: add \`${PREPARE_SCRIPT}\` to it, ${fresh}`;
    case 'no-project':
      return `no project package.json around it: in a fresh clone, run \`npx ${PREPARE_SCRIPT}\` once, ${fresh}`;
  }
}

/** Writes the scaffold into `dir`; refuses a directory that already holds any file. */
export async function scaffoldHookProject(dir: string): Promise<{ dir: string; files: string[]; dependency: HookboxDependency }> {
  const target = resolve(dir);
  if (existsSync(target) && (await readdir(target)).length > 0) {
    throw new ConfigError(`${target}: the directory is not empty; refusing to scaffold over existing files`);
  }
  await mkdir(target, { recursive: true });
  const name = basename(target).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '') || 'my-hook';
  const dependency = hookboxDependency(target);
  const files: Record<(typeof SCAFFOLD_FILES)[number], string> = {
    'package.json': packageJson(name, dependency.spec),
    'tsconfig.json': tsconfigJson(target, dependency),
    'hook.ts': HOOK_TS,
    'hook.test.mjs': hookTest(name),
    '.gitignore': 'node_modules/\ndist/\n',
    'README.md': readme(name),
  };
  for (const [file, text] of Object.entries(files)) await writeFile(join(target, file), text);
  return { dir: target, files: Object.keys(files), dependency };
}

function packageJson(name: string, hookboxSpec: string): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: 'A hookbox hook',
    scripts: {
      build: 'hookbox build hook.ts -o dist/hook.wasm',
      test: 'node --test hook.test.mjs',
    },
    devDependencies: { hookbox: hookboxSpec },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * Type-checks like `hookbox build` does: ES2020 (QuickJS), the js-pdk globals,
 * no Node. The globals' declarations ship in hookbox: a path relative to the
 * project (its own node_modules/hookbox, or the one of the project around it),
 * so the file holds on any machine with the same layout.
 */
function tsconfigJson(target: string, dependency: HookboxDependency): string {
  const inPackage = relative(PACKAGE_ROOT, jsPdkTypes());
  const jsPdk = (dependency.install === 'inherited' ? relative(target, jsPdkTypes()) : join('node_modules', 'hookbox', inPackage)).split('\\').join('/');
  const config = { compilerOptions: HOOK_COMPILER_OPTIONS, files: [jsPdk], include: ['*.ts'] };
  return `${JSON.stringify(config, null, 2)}\n`;
}

const HOOK_TS = `import { allow, ask, defineHook, deny } from 'hookbox/pdk/index.ts';

/**
 * A pre-tool gate for the \`bash\` tool: denies recursive deletes of / or ~,
 * asks before \`git push\`, and allows the rest. Operators can add a regular
 * expression of their own with the config key \`denyPattern\`.
 *
 * Handlers run inside the sandbox (QuickJS, ES2020, no Node APIs). Returning
 * nothing means "no opinion": the decision so far (\`ctx.next\`) stands.
 */
export default defineHook({
  // What the hook asks of the operator, written into dist/hook.json by \`hookbox build\`:
  // the config keys it reads (an operator's unknown key is refused). Capabilities
  // (\`capabilities: { allowedHosts: ['api.example.com'] }\`), \`tools\` and \`limits\` go here too;
  // nothing requested is reachable until the operator's config also grants it.
  config: { denyPattern: 'an extra regular expression of commands to deny' },

  preTool(payload, ctx) {
    if (payload.toolName !== 'bash') return;
    const command = String(payload.arguments.command ?? '');

    if (/\\brm\\s+-[a-z]*(r[a-z]*f|f[a-z]*r)[a-z]*\\s+(\\/|~)(\\s|$)/i.test(command)) {
      return deny('recursive delete of / or ~');
    }
    const extra = ctx.config.get('denyPattern');
    if (extra !== undefined && new RegExp(extra).test(command)) {
      return deny('the command matches the configured denyPattern');
    }
    if (/\\bgit\\s+push\\b/.test(command)) return ask('pushes to a remote');

    // Var-backed state survives across calls in the same session.
    const seen = (ctx.state.getJson<number>('commands') ?? 0) + 1;
    ctx.state.setJson('commands', seen);
    ctx.log.debug(\`command #\${seen} allowed in session \${ctx.session.id}\`);
    return allow();
  },
});
`;

function hookTest(name: string): string {
  return `// Builds hook.ts to wasm and calls it through hookbox's sandbox runner.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { buildHook, HookRunner } from 'hookbox/pdk/testing.mjs';

const session = { id: 'test-session', turn: 1, step: 0, cwd: process.cwd() };
let runner;
let hook;

before(async () => {
  const built = await buildHook({ entry: fileURLToPath(new URL('./hook.ts', import.meta.url)) });
  runner = await HookRunner.start({ workers: 1 });
  hook = await runner.load({ name: ${JSON.stringify(name)}, wasm: built.wasmPath, sha256: built.sha256, config: { denyPattern: '\\\\bshutdown\\\\b' } });
});

after(async () => {
  await hook?.close();
  await runner?.close();
});

const bash = (command) =>
  hook.invoke({
    seam: 'tools/pre-execute',
    payload: { toolCallId: 'call-1', toolName: 'bash', arguments: { command } },
    next: { action: 'allow' },
    session,
  });

test('denies a recursive delete of /', async () => {
  assert.deepEqual(await bash('rm -rf /'), { type: 'decision', decision: { action: 'deny', reason: 'recursive delete of / or ~' } });
});

test('asks before git push', async () => {
  assert.deepEqual(await bash('git push origin main'), { type: 'decision', decision: { action: 'ask', reason: 'pushes to a remote' } });
});

test('applies the configured denyPattern', async () => {
  const outcome = await bash('sudo shutdown -h now');
  assert.equal(outcome.type, 'decision');
  assert.equal(outcome.decision.action, 'deny');
});

test('allows everything else', async () => {
  assert.deepEqual(await bash('ls -la'), { type: 'decision', decision: { action: 'allow' } });
});

test('has no opinion on other tools', async () => {
  const outcome = await hook.invoke({
    seam: 'tools/pre-execute',
    payload: { toolCallId: 'call-2', toolName: 'read_file', arguments: { path: 'README.md' } },
    next: { action: 'allow' },
    session,
  });
  assert.deepEqual(outcome, { type: 'no-opinion' });
});
`;
}

function readme(name: string): string {
  return `# ${name}

A hookbox hook: \`hook.ts\` gates the \`bash\` tool before it runs.

- \`npm run build\` — compile to \`dist/hook.wasm\` and \`dist/hook.json\` (sha256, seams, limits, and what \`defineHook\` requests)
- \`npm test\` — build, then call the hook through hookbox's sandbox runner

Config keys: \`denyPattern\` — an extra regular expression of commands to deny.

\`dist/\` is not committed (\`.gitignore\`): in a clone, \`npx hookbox build --config hookbox.config.json\`
from the project's root builds every hook its config names from source (\`init\` put it in the project's
\`prepare\` script, so \`npm ci\` / \`npm install\` runs it).

Before writing a rule here, see whether a built-in policy already decides it (\`npx hookbox policies\`:
protected paths and more, configured by JSON in \`hookbox.config.json\`). \`npx hookbox test\` runs a table
of cases (\`hookbox.test.json\`: a seam, a payload, the expected decision) through every hook of the config,
this one included, and exits 1 when one fails — for CI.
`;
}
