/**
 * `setup --client native` (issue #55), and with no `--client` where it is
 * built (the default): the command line it writes runs the native client, `doctor` and `setup --remove`
 * know that line as hookbox's, and the line decides an event as the other
 * clients do — through a running server, and (no server) by handing the
 * event to the node client.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCommand, hookClientKind, hookClientOf, hookCommand } from '../../host/cli/setup-paths.ts';
import { DecisionServer, loadServedHooks } from '../../host/serve/index.ts';
import { NATIVE_MISSING, runProgram } from '../helpers/command-hook.ts';
import { writeExampleConfig } from '../helpers/examples.ts';
import { hookbox } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';

const skip = skipUnless('setup --client native', NATIVE_MISSING);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-native-setup-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rmHome = (cwd: string, session: string) =>
  JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, tool_use_id: 't1' });

describe.skipIf(skip)('setup --client native', () => {
  it('writes the binary itself (no interpreter word), and the line reads as the native client’s', () => {
    expect(hookClientKind('native')).toBe('native');
    const { words } = clientCommand('claude-code', { kind: 'user' }, 'native');
    expect(words).toHaveLength(1);
    expect(words[0]).toMatch(/dist\/native\/[\w-]+\/hookbox-hook'?$/);
    const line = hookCommand('claude-code', { kind: 'user' }, { words }, { before: ['claude-code'], socket: '/s.sock', config: '/c.json', after: [] }, []);
    expect(hookClientOf(line)).toBe('native');
    expect(hookClientOf(line.replace('hookbox-hook', 'hookbox-hook.sh'))).toBe('sh');
  });

  it('is setup\'s default where built: the line names it, doctor reports it as the native client, --remove takes it out', { timeout: 180_000 }, async () => {
    const project = mkdtempSync(join(dir, 'd-'));
    writeExampleConfig(project, [{ name: 'guard-bash' }]);
    const env = { HOME: join(project, 'home') };
    const setup = await hookbox(['setup', 'claude-code', '--project', project], env);
    expect(setup.status, setup.stderr).toBe(0);
    const settings = join(project, '.claude', 'settings.json');
    expect(hookClientOf(readFileSync(settings, 'utf8'))).toBe('native');
    expect(setup.stdout).toContain(`runs the native client built for ${process.platform}-${process.arch}`);
    const doctor = await hookbox(['doctor', 'claude-code', '--project', project], env);
    expect(doctor.stdout).toContain('ok   command client: native');
    expect(doctor.status, doctor.stdout).toBe(0);
    expect((await hookbox(['setup', 'claude-code', '--remove', '--project', project], env)).status).toBe(0);
    expect(readFileSync(settings, 'utf8')).not.toContain('hookbox-hook');
  });

  it('the line it writes decides through a running server, and with none hands the event to the node client', { timeout: 120_000 }, async () => {
    const project = mkdtempSync(join(dir, 'p-'));
    const config = writeExampleConfig(project, [{ name: 'guard-bash' }]);
    const socket = join(project, '.hookbox', 'run', 'serve.sock');
    const { words } = clientCommand('claude-code', { kind: 'user' }, 'native');
    const line = hookCommand('claude-code', { kind: 'user' }, { words }, { before: ['claude-code'], socket, config, after: [] }, []);
    const down = await runProgram('sh', ['-c', line], rmHome(project, 'n-down'));
    expect(JSON.parse(down.stdout).hookSpecificOutput, down.stderr).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
    const lines: string[] = [];
    const server = new DecisionServer({ hooks: await loadServedHooks(config), socket, log: (text) => lines.push(text) });
    await server.listen();
    try {
      const up = await runProgram('sh', ['-c', line], rmHome(project, 'n-up'));
      expect(JSON.parse(up.stdout).hookSpecificOutput, up.stderr).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('guard-bash') });
      expect(lines.some((text) => /claude-code n-up PreToolUse deny 200/.test(text))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
