/**
 * A team's project through the real bin: a hook scaffolded by `init` inside a project, a config
 * naming its `dist/hook.json`, and a teammate's clone where `dist/` (git-ignored) is missing —
 * an event then answers closed naming the one command, `hookbox build --config`, which builds
 * every hook of the config from its source. And a hook that declares what it requests in its
 * own source (`defineHook({ capabilities, config })`): the build writes it into hook.json, the
 * operator's grant decides, and `call --config` runs the hook with its entry against a real
 * local HTTP server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
let dir: string;
let home: string;

function hookbox(args: readonly string[], cwd: string, input = '', env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', input, env: { ...process.env, HOME: home, NO_COLOR: '1', ...env }, timeout: 240_000 });
}

/** As {@link hookbox}, without blocking this process (whose HTTP server the hook calls). */
function hookboxAsync(args: readonly string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, HOME: home, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A PreToolUse event for Bash, as Claude Code sends it to a command hook. */
function preToolUse(cwd: string, command: string): string {
  return JSON.stringify({ session_id: 'team', transcript_path: path.join(cwd, 't.jsonl'), cwd, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'u1' });
}

/** The PreToolUse command `setup claude-code` registered, run as Claude Code runs it. */
function claudeEvent(project: string, command: string) {
  const settings = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command?: string }[] }[]> };
  const hookCommand = settings.hooks.PreToolUse?.[0]?.hooks[0]?.command as string;
  return spawnSync('sh', ['-c', hookCommand], { cwd: project, input: preToolUse(project, command), encoding: 'utf8', env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: project }, timeout: 120_000 });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hookbox-team-build-'));
  home = path.join(dir, 'home');
  mkdirSync(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a fresh clone builds its hooks with the one documented command', () => {
  it('init wires the project\'s prepare script; without dist/ an event is denied naming `npx hookbox build --config hookbox.config.json`; after it, the hook decides', () => {
    const project = path.join(dir, 'clone');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ name: 'team-app', version: '1.0.0', private: true }, null, 2)}\n`);
    const init = hookbox(['init', 'hooks/my-guard', '--no-install'], project);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('added "prepare": "hookbox build --config hookbox.config.json" to package.json');
    const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepare).toBe('hookbox build --config hookbox.config.json');
    expect(readFileSync(path.join(project, 'hooks', 'my-guard', '.gitignore'), 'utf8').split('\n')).toContain('dist/');

    // Set up as the README's five-minute path does: built, configured, set up for Claude Code.
    expect(hookbox(['build', 'hooks/my-guard/hook.ts', '--no-typecheck'], project).status).toBe(0);
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'my-guard', manifest: 'hooks/my-guard/dist/hook.json' }] }));
    expect(hookbox(['setup', 'claude-code', '--config', 'hookbox.config.json'], project).status).toBe(0);
    // The teammate's clone: the config and the settings are committed, dist/ is not.
    rmSync(path.join(project, 'hooks', 'my-guard', 'dist'), { recursive: true });
    const unbuilt = claudeEvent(project, 'ls');
    expect(unbuilt.stdout).toContain('"permissionDecision":"deny"');
    expect(unbuilt.stdout).toContain('hooks[0].manifest');
    expect(unbuilt.stdout).toContain('run `npx hookbox build --config hookbox.config.json`');
    const unbuiltDoctor = hookbox(['doctor', 'claude-code'], project);
    expect(unbuiltDoctor.status).not.toBe(0);
    expect(unbuiltDoctor.stdout).toContain('never built: run `npx hookbox build --config hookbox.config.json`');

    const build = hookbox(['build', '--config', 'hookbox.config.json'], project);
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).toContain('1 hook(s) of hookbox.config.json built');
    const manifest = JSON.parse(readFileSync(path.join(project, 'hooks', 'my-guard', 'dist', 'hook.json'), 'utf8')) as Record<string, unknown>;
    // The scaffold declares the config key it reads; the build carried it into hook.json.
    expect(manifest.config).toEqual({ denyPattern: 'an extra regular expression of commands to deny' });

    const allowed = claudeEvent(project, 'ls');
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toContain('deny');
    expect(claudeEvent(project, 'rm -rf /').stdout).toContain('recursive delete of / or ~');
    const doctor = hookbox(['doctor', 'claude-code'], project);
    expect(doctor.status, `${doctor.stdout}${doctor.stderr}`).toBe(0);
  }, 600_000);

  it('build with no argument finds the config from a subfolder; with none above, it says so', () => {
    const project = path.join(dir, 'upward');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ name: 'odd', manifest: 'out/hook.json' }] }));
    const odd = hookbox(['build'], path.join(project, 'src'));
    expect(odd.status).toBe(1);
    expect(odd.stderr).toContain(`${path.join(project, 'hookbox.config.json')}: hooks[0].manifest: its manifest ${path.join(project, 'out', 'hook.json')} is not <folder>/dist/hook.json`);
    const nowhere = hookbox(['build'], home);
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('no hook entry given and no hookbox.config.json in');
  }, 120_000);
});

const REQUESTING_HOOK = `import { defineHook, deny } from 'hookbox/pdk/index.ts';

export default defineHook({
  capabilities: { allowedHosts: ['127.0.0.1'] },
  config: { endpoint: 'the URL asked before each bash command' },
  tools: ['bash'],
  limits: { timeoutMs: 5000 },
  preTool(_payload, ctx) {
    const res = Http.request({ url: String(ctx.config.get('endpoint')), method: 'GET' });
    return deny('the server said ' + String(res.body));
  },
});
`;

describe('a hook declares what it requests in its own source', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end('no-from-server');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ask`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('build writes capabilities, tools, limits and config keys into hook.json; call --config reaches the granted host; ungranted, the call faults and exits 1', async () => {
    const project = path.join(dir, 'requests');
    mkdirSync(path.join(project, 'hooks', 'asker'), { recursive: true });
    writeFileSync(path.join(project, 'hooks', 'asker', 'hook.ts'), REQUESTING_HOOK);
    const entry = { name: 'asker', manifest: 'hooks/asker/dist/hook.json', config: { endpoint: url } };
    writeFileSync(path.join(project, 'hookbox.config.json'), JSON.stringify({ hooks: [{ ...entry, grant: { allowedHosts: ['127.0.0.1'] } }] }));
    writeFileSync(path.join(project, 'ungranted.json'), JSON.stringify({ hooks: [entry] }));
    writeFileSync(path.join(project, 'payload.json'), JSON.stringify({ toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' } }));
    // Typed against the js-pdk globals (Http) as the scaffold's tsconfig does; no type-check needed to read the requests.
    const build = hookbox(['build', '--no-typecheck'], project);
    expect(build.status, build.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(project, 'hooks', 'asker', 'dist', 'hook.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      capabilities: { allowedHosts: ['127.0.0.1'] },
      config: { endpoint: 'the URL asked before each bash command' },
      tools: ['bash'],
      limits: { timeoutMs: 5000, instructionBudget: 30_000_000 },
    });

    const granted = await hookboxAsync(['call', 'asker', '--config', 'hookbox.config.json', '--seam', 'tools/pre-execute', '--payload', 'payload.json', '--json'], project);
    expect(granted.status, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toMatchObject({ decision: { action: 'deny', reason: 'the server said no-from-server' }, fault: null });
    expect(seen).toEqual(['/ask']);

    // pack keeps what the source requests in the packaged hook.json.
    const packed = hookbox(['pack', 'hooks/asker', '--package-name', 'asker', '--package-version', '1.0.0', '-o', 'out', '--folder', 'packed'], project);
    expect(packed.status, packed.stderr).toBe(0);
    const packedManifest = JSON.parse(readFileSync(path.join(project, 'packed', 'dist', 'hook.json'), 'utf8')) as Record<string, unknown>;
    expect(packedManifest).toMatchObject({ capabilities: { allowedHosts: ['127.0.0.1'] }, config: { endpoint: 'the URL asked before each bash command' }, tools: ['bash'] });

    // The request alone reaches nothing: without the operator's grant, Http.request is refused.
    const refused = await hookboxAsync(['call', 'hooks/asker/dist/hook.json', '--config', 'ungranted.json', '--seam', 'tools/pre-execute', '--payload', 'payload.json', '--json'], project);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ fault: { kind: 'plugin-error' } });
    expect(seen).toEqual(['/ask']);
  }, 600_000);

  it('a computed request fails the build, naming file, line and key', () => {
    const project = path.join(dir, 'computed');
    mkdirSync(project);
    writeFileSync(path.join(project, 'hook.ts'), `import { defineHook, allow } from 'hookbox/pdk/index.ts';\nconst host = 'a' + '.example.com';\nexport default defineHook({\n  capabilities: { allowedHosts: [host] },\n  preTool: () => allow(),\n});\n`);
    const build = hookbox(['build', 'hook.ts', '--no-typecheck'], project);
    expect(build.status).toBe(2);
    expect(build.stderr).toContain(`${path.join(project, 'hook.ts')}:4:34: defineHook's capabilities.allowedHosts[0] must be written as a literal`);
  }, 120_000);
});
