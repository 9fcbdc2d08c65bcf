/**
 * A team's project through the real bin (no agent): the README's `serve`
 * line serves the socket `setup` wrote, and `doctor` fails when this
 * project's server answers somewhere the clients never ask; `doctor` passes
 * an http setup with the server up; `doctor` run in a subfolder finds the
 * project's setup above it and says Claude Code started there runs none of
 * it, until `setup --project <subfolder>` guards that folder too.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { HOOKBOX_BIN, type AgentRun, runAsync } from '../helpers/real-agents.ts';
import { type ServeProcess, startServe } from '../helpers/serve-process.ts';

const TIMEOUT = 300_000;
const servers: ServeProcess[] = [];

/** A project as the README makes it: hookbox installed in it (a link to this checkout), a config naming a built hook, a src/ folder. */
function teamProject(): { project: string; src: string; env: NodeJS.ProcessEnv; hookboxHome: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hookbox-team-')));
  const project = join(root, 'project');
  const src = join(project, 'src');
  const home = join(root, 'home');
  const hookboxHome = join(home, '.hookbox');
  mkdirSync(src, { recursive: true });
  mkdirSync(join(project, 'node_modules'));
  mkdirSync(hookboxHome, { recursive: true, mode: 0o700 });
  symlinkSync(PACKAGE_ROOT, join(project, 'node_modules', 'hookbox'));
  writeFileSync(join(project, 'hookbox.config.json'), `${JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash') }] }, null, 2)}\n`);
  return { project, src, hookboxHome, env: { ...process.env, HOME: home, HOOKBOX_HOME: hookboxHome } };
}

function hookboxIn(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[]): Promise<AgentRun> {
  return runAsync(process.execPath, [HOOKBOX_BIN, ...args], { cwd, env, timeoutMs: 180_000 });
}

async function serve(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const server = await startServe(args, cwd, env);
  servers.push(server);
  return server;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('the documented server is the one the clients ask (real bin)', () => {
  it("the README's serve line, run in the project, listens on the socket setup wrote (and no port); doctor finds it there", { timeout: TIMEOUT }, async () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const line = 'npx hookbox serve --config hookbox.config.json';
    expect(readme).toContain(`\`${line}\``);
    const { project, env } = teamProject();
    const setup = await hookboxIn(project, env, ['setup', 'claude-code', '--config', 'hookbox.config.json']);
    expect(setup.status, setup.stderr).toBe(0);
    const server = await serve(line.split(' ').slice(2), project, env);
    const socket = join(project, '.hookbox', 'run', 'serve.sock');
    expect(server.log()).toContain(`listening on unix:${socket}; config`);
    expect(server.log()).not.toContain('http://');
    const doctor = await hookboxIn(project, env, ['doctor', 'claude-code']);
    expect(doctor.stdout).toContain(`ok   server on ${socket} answered a probe`);
    expect(doctor.stdout).toMatch(/ok {3}server on .* serves this project's layered config/);
    expect(doctor.status, doctor.stdout).toBe(0);
  });

  it("this project's server on the user-wide socket, none where the clients look: doctor fails and says where to start it", { timeout: TIMEOUT }, async () => {
    const { project, env, hookboxHome } = teamProject();
    expect((await hookboxIn(project, env, ['setup', 'claude-code'])).status).toBe(0);
    const stray = join(hookboxHome, 'serve.sock');
    await serve(['serve', '--config', 'hookbox.config.json', '--socket', stray], project, env);
    const doctor = await hookboxIn(project, env, ['doctor', 'claude-code']);
    expect(doctor.stdout).toContain(`FAIL no server on ${join(project, '.hookbox', 'run', 'serve.sock')}, where the hook clients look — but a hookbox server for this config answers on ${stray}, which the agents never ask`);
    expect(doctor.stdout).toContain(`fix: stop that server and start it where the clients look: hookbox serve --config ${join(project, 'hookbox.config.json')}`);
    expect(doctor.status).toBe(1);
  });

  it('setup claude-code --transport http, then doctor claude-code: green with the server up (no SessionStart asked of http), red with it down', { timeout: TIMEOUT }, async () => {
    const { project, env, hookboxHome } = teamProject();
    const port = String(await freePort());
    const token = join(hookboxHome, 'team-token');
    const setup = await hookboxIn(project, env, ['setup', 'claude-code', '--transport', 'http', '--port', port, '--token-file', token]);
    expect(setup.status, setup.stderr).toBe(0);
    const server = await serve(['serve', '--config', 'hookbox.config.json', '--port', port, '--token-file', token], project, env);
    const up = await hookboxIn(project, env, ['doctor', 'claude-code']);
    expect(up.stdout).toContain("(none for SessionStart: Claude Code calls command hooks only there, and the server fires it itself)");
    expect(up.stdout).toContain(`ok   server at http://127.0.0.1:${port}/hooks/claude-code answered a probe`);
    expect(up.status, up.stdout).toBe(0);
    await server.stop();
    const down = await hookboxIn(project, env, ['doctor', 'claude-code']);
    expect(down.status, down.stdout).toBe(1);
    expect(down.stdout).not.toContain('--transport command');
  });

  it("doctor run in src/ checks the project's setup above it and fails: Claude Code started there runs none of it; setup --project src guards that folder too", { timeout: TIMEOUT }, async () => {
    const { project, src, env } = teamProject();
    const top = await hookboxIn(project, env, ['setup', 'claude-code']);
    expect(top.status, top.stderr).toBe(0);
    expect(top.stdout).toContain(`started in a subfolder of ${project}, it runs no hookbox hook unless that folder is set up too (hookbox setup claude-code --project <subfolder>)`);
    const before = await hookboxIn(src, env, ['doctor', 'claude-code']);
    expect(before.stdout).toContain(`claude-code: NOT OK (${join(project, '.claude', 'settings.json')})`);
    expect(before.stdout).toContain(`started in ${src}, Claude Code reads ${join(src, '.claude', 'settings.json')} (there is none), not ${join(project, '.claude', 'settings.json')}: no hookbox hook runs`);
    expect(before.stdout).toContain(`fix: start Claude Code in ${project}; or guard this folder too: hookbox setup claude-code --project ${src}`);
    expect(before.status).toBe(1);

    const guard = await hookboxIn(src, env, ['setup', 'claude-code', '--project', '.']);
    expect(guard.status, guard.stderr).toBe(0);
    expect(guard.stdout).toContain(`${src} is a subfolder of the project ${project}`);
    const settings = readFileSync(join(src, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(project); // portable: found by walking up, no machine path
    const after = await hookboxIn(src, env, ['doctor', 'claude-code']);
    expect(after.stdout).toMatch(/probe event through the configured command decided/);
    expect(after.status, after.stdout).toBe(0);
  });
});
