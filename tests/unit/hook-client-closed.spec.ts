/**
 * The command client (plain CommonJS, so it can answer without loading the
 * TypeScript host) repeats a few of the host's facts: each agent's closed
 * answer per event, its default deadline, the continuation cap, the default
 * socket, header names. These tables hold the two sides equal, so neither
 * can drift.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_BRIDGES, HOOK_CLIENT_DEFAULT_DEADLINE_MS } from '../../host/agents/index.ts';
import { LOOP_DEFAULTS } from '../../host/loop/defaults.ts';
import { CONFIG_HEADER, REFUSED_HEADER } from '../../host/serve/config-identity.ts';
import { EXIT_HEADER, defaultSocketPath } from '../../host/serve/index.ts';
import { connectablePath } from '../../host/serve/server.ts';
import { PROJECT_DIR_VARIABLE, PROJECT_SOCKET } from '../../host/cli/setup-paths.ts';

const require = createRequire(import.meta.url);
const closed = require('../../host/cli/hook-closed.cjs') as {
  CLOSED: Record<string, Record<string, unknown>>;
  closedAnswer(agent: string, event: string | undefined, reason: string): { exitCode: number; stdout: string; stderr: string };
};
const client = require('../../host/cli/hookbox-hook.cjs') as Record<string, unknown> & { defaultSocket(env: NodeJS.ProcessEnv): string };

const REASON = 'no decision within 1234 ms (the server or the in-process hooks took too long); answered closed';

describe('hookbox hook: each seam of each agent answers closed exactly as the bridge does', () => {
  for (const bridge of Object.values(AGENT_BRIDGES)) {
    const events = [...new Set(bridge.events.map((row) => row.event))];
    it(`${bridge.name}: the client's table names every event the bridge maps`, () => {
      expect(Object.keys(closed.CLOSED[bridge.name] ?? {}).sort()).toEqual(events.sort());
    });
    for (const event of [...events, 'NoSuchEvent', undefined]) {
      it(`${bridge.name} ${String(event)}: the client's closed answer is the bridge's failClosed`, () => {
        expect(closed.closedAnswer(bridge.name, event, REASON)).toEqual(bridge.failClosed(event, REASON));
      });
    }
  }

  // What "closed" means per seam, written out once so a change to either side is a change here.
  const SEAM_FORMS: readonly [string, string, (answer: { exitCode: number; stdout: string }) => void][] = [
    ['claude-code', 'PreToolUse', (a) => expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe('deny')],
    // Not exit 2: Claude Code shows the model a PostToolUse output when the hook exits 2; `continue: false` withholds it.
    ['claude-code', 'PostToolUse', (a) => expect(JSON.parse(a.stdout)).toMatchObject({ continue: false, decision: 'block' })],
    ['claude-code', 'PostToolUseFailure', (a) => expect(JSON.parse(a.stdout)).toMatchObject({ continue: false })],
    ['claude-code', 'UserPromptSubmit', (a) => expect(JSON.parse(a.stdout).decision).toBe('block')],
    ['codex', 'PreToolUse', (a) => expect(JSON.parse(a.stdout).hookSpecificOutput.permissionDecision).toBe('deny')],
    ['codex', 'PostToolUse', (a) => expect(JSON.parse(a.stdout).decision).toBe('block')],
    ['codex', 'UserPromptSubmit', (a) => expect(JSON.parse(a.stdout).decision).toBe('block')],
    ['gemini', 'BeforeTool', (a) => expect(JSON.parse(a.stdout).decision).toBe('deny')],
    ['gemini', 'AfterTool', (a) => expect(JSON.parse(a.stdout).decision).toBe('deny')],
    ['gemini', 'BeforeAgent', (a) => expect(JSON.parse(a.stdout).decision).toBe('deny')],
  ];
  for (const [agent, event, check] of SEAM_FORMS) {
    it(`${agent} ${event}: closed is a refusal the agent reads on exit 0`, () => {
      const answer = closed.closedAnswer(agent, event, REASON);
      expect(answer.exitCode).toBe(0);
      check(answer);
    });
  }

  it('the reason reaching the agent is one printable ASCII line, whatever the error said', () => {
    const answer = closed.closedAnswer('claude-code', 'PreToolUse', 'bad \u001b[31mred\u202e\nline');
    expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason).toBe('hookbox: bad  [31mred line');
  });
});

describe("hookbox hook: the constants the client repeats are the host's", () => {
  it('default deadline, continuation cap, headers, socket path limit, project-folder variables', () => {
    expect(client.DEFAULT_DEADLINE_MS).toBe(HOOK_CLIENT_DEFAULT_DEADLINE_MS);
    expect(client.DEFAULT_MAX_CONTINUATIONS).toBe(LOOP_DEFAULTS.maxContinuations);
    expect(client.EXIT_HEADER).toBe(EXIT_HEADER);
    expect(client.CONFIG_HEADER).toBe(CONFIG_HEADER);
    expect(client.REFUSED_HEADER).toBe(REFUSED_HEADER);
    expect(client.PROJECT_DIR_VARIABLE).toEqual(PROJECT_DIR_VARIABLE);
    // The socket a client starts the project's server on (#55) is the one setup writes.
    expect(client.PROJECT_SOCKET).toBe(PROJECT_SOCKET);
    // The agents whose events carry no name: their closed answers follow the command line's event.
    expect([...(client.EVENT_ON_COMMAND_LINE as Set<string>)]).toEqual(Object.values(AGENT_BRIDGES).filter((bridge) => bridge.eventOnCommandLine === true).map((bridge) => bridge.name));
    // A socket path the kernel refuses (over 107 bytes) is reached by its path from the cwd, on both sides alike.
    const max = client.MAX_SOCKET_PATH as number;
    const near = `${'d'.repeat(max - '/s.sock'.length)}/s.sock`;
    const long = join(process.cwd(), near);
    expect(connectablePath(long)).toBe(near);
    expect((client.connectablePath as (p: string) => string)(long)).toBe(near);
    expect(connectablePath('/tmp/s.sock')).toBe('/tmp/s.sock');
  });

  it('the default socket, with and without HOOKBOX_HOME', () => {
    for (const env of [{ HOOKBOX_HOME: '/srv/hb' }, { HOOKBOX_HOME: 'rel/hb' }, {}]) expect(client.defaultSocket(env)).toBe(defaultSocketPath(env));
  });
});
