import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { writeCorpusWasm } from './wat.ts';
import { exampleManifest } from './examples.ts';

/** A secret the redactor and prompt guard recognise (GitHub token shape). */
export const GITHUB_TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
/** An AWS access key id (the documented example key). */
export const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** A fresh folder for one real-agent run: project, agent home, hookbox's private dir. */
export function agentWorkspace(prefix: string): { root: string; project: string; home: string; hookboxDir: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const project = join(root, 'project');
  const home = join(root, 'home');
  const hookboxDir = join(root, 'hookbox');
  for (const dir of [project, home]) mkdirSync(dir, { recursive: true });
  mkdirSync(hookboxDir, { recursive: true, mode: 0o700 });
  return { root, project, home, hookboxDir };
}

/**
 * The operator config the real-agent suites run: four example hooks
 * (prompt-guard, guard-bash, secret-redactor, test-gate whose test command
 * is `sh test.sh`) and one shell hook that refuses writes to `.env` files (`.env`, `prod.env`) (to see
 * an agent's file edit arrive as hookbox's `write_file`).
 */
export function writeAgentSuiteConfig(dir: string): string {
  const noEnv = join(dir, 'no-env.sh');
  writeFileSync(noEnv, `#!/bin/sh\nin=$(cat)\ncase "$in" in *'.env"'*) echo "no-env: writes to .env files are not allowed" >&2; exit 2;; esac\nexit 0\n`, { mode: 0o755 });
  const hooks = [
    { name: 'prompt-guard', manifest: exampleManifest('prompt-guard') },
    { name: 'guard-bash', manifest: exampleManifest('guard-bash'), tools: ['bash'] },
    { name: 'secret-redactor', manifest: exampleManifest('secret-redactor') },
    { name: 'test-gate', manifest: exampleManifest('test-gate'), config: { testCommand: 'sh test\\.sh', maxContinuations: '2' } },
    { name: 'no-env', command: `sh ${noEnv}`, protocol: 'claude-code', unsandboxed: true, seams: ['tools/pre-execute'], tools: ['write_file'] },
  ];
  const file = join(dir, 'hookbox.config.json');
  writeFileSync(file, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return file;
}

/** An operator config with one hook that traps on every call (from the hostile corpus). */
export async function writeTrapConfig(dir: string): Promise<string> {
  const wasm = await writeCorpusWasm('trap', dir);
  const file = join(dir, 'trap.config.json');
  writeFileSync(file, `${JSON.stringify({ hooks: [{ name: 'trap', wasm, seams: ['tools/pre-execute'] }] }, null, 2)}\n`);
  return file;
}

/** A test script that fails until `fixed` exists, then passes. */
export function writeTestScript(project: string): void {
  writeFileSync(join(project, 'test.sh'), '[ -f fixed ] && { echo "1 passed"; exit 0; }\necho "1 failed"; exit 1\n');
}

/**
 * hookbox installed in `project` as `npm i -D <path>` makes it (a link to this
 * checkout) with `config` copied in as its hookbox.config.json: the layout for
 * which `setup` writes portable settings. Returns the setup flags naming it.
 */
export function installHookboxInProject(project: string, config: string): string[] {
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'hookbox'));
  copyFileSync(config, join(project, 'hookbox.config.json'));
  return ['--config', join(project, 'hookbox.config.json')];
}

/** A git repository with hookbox installed (a link to this checkout), guard-bash in its config, and a src/ folder. */
export function gitProject(project: string, scratch: string): string {
  mkdirSync(join(project, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: project });
  const config = join(scratch, 'guard.config.json');
  writeFileSync(config, `${JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }, null, 2)}\n`);
  installHookboxInProject(project, config);
  return join(project, 'src');
}
