/**
 * The one suite every agent bridge passes (one module per agent, one
 * registry line each): its table, every row of it read as its seam (a sample
 * event built from the event's schema) and answered closed in the agent's
 * own form, its refusal of bad input, and a settings merge that `--remove`
 * undoes exactly; the agent folders are the registry's.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_BRIDGES, AGENT_NAMES, type AgentAnswer, type AgentBridge, type AgentName, type AgentSeamEvent, type SetupTransport } from '../../host/agents/index.ts';
import { NO_OPINION } from '../../host/agents/bridge-parts.ts';
import { hookFault, isSeamId, seamDefinition } from '../../host/seams/index.ts';
import { sampleEvent } from './agent-event-samples.ts';

const TRANSPORTS: readonly SetupTransport[] = [
  { kind: 'command', command: "'/usr/bin/node' '/opt/hookbox/host/cli/hookbox.mjs' 'hook' 'AGENT' '--socket' '/run/s.sock'" },
  { kind: 'http', url: 'http://127.0.0.1:47100/hooks/AGENT', headers: { Authorization: 'Bearer t' } },
  { kind: 'plugin', module: '../../node_modules/hookbox/host/agents/AGENT/plugin.mjs', options: { socket: '.hookbox/run/serve.sock', config: 'hookbox.config.json', deadlineMs: 25_000 } },
];

describe.each(Object.entries(AGENT_BRIDGES))('agent bridge %s', (key, bridge) => {
  it('is registered under its own name, a URL- and command-safe word', () => {
    expect(bridge.name).toBe(key);
    expect(bridge.name).toMatch(/^[a-z0-9-]+$/);
  });

  it('maps every listed event to a seam, with what each decision becomes', () => {
    expect(bridge.events.length).toBeGreaterThan(0);
    for (const row of bridge.events) {
      expect(isSeamId(row.seam)).toBe(true);
      expect(row.answers.length).toBeGreaterThan(10);
    }
  });

  // An agent whose events carry no name gets it from the command line: its probe's event stands in.
  const named = bridge.eventOnCommandLine === true ? bridge.probe.eventName : undefined;

  it.each([null, 42, 'text', [], {}, { hook_event_name: 'PreToolUse' }])('refuses %j as invalid, naming the input path', (input) => {
    const parsed = bridge.toSeam(input, named);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.message).toMatch(/input\./);
  });

  // Every row of the agent's protocol table, sent as the agent sends it (a sample built from the event's schema).
  it.each(bridge.events.map((row) => [row.event, row.seam, row] as const))('reads its event %s as a call of %s', (_event, seam, row) => {
    const { input, named } = sampleEvent(key as AgentName, bridge, row, '/work/project');
    const parsed = bridge.toSeam(input, named);
    expect(parsed, JSON.stringify(parsed)).toMatchObject({ kind: 'seam', event: { event: row.event, seam } });
    if (parsed.kind === 'seam') for (const more of parsed.more ?? []) expect(more).toMatchObject({ event: row.event, seam });
  });

  // A closed answer is what the agent's own answer to the seam's closed fault decision is: the same form, the reason in it.
  it.each(bridge.events.map((row) => [row.event, row] as const))('answers %s closed in its own format (as it answers the seam\'s closed fault decision)', (_event, row) => {
    const { input, named } = sampleEvent(key as AgentName, bridge, row, '/work/project');
    const parsed = bridge.toSeam(input, named);
    if (parsed.kind !== 'seam') throw new Error(`${row.event} was not read: ${JSON.stringify(parsed)}`);
    const closed = bridge.failClosed(row.event, 'because of X');
    const decided = closedDecisionAnswer(bridge, parsed.event);
    if (isNoOpinion(decided)) {
      expect(closed).toEqual(NO_OPINION);
      return;
    }
    expect(closed.exitCode).toBe(decided.exitCode);
    expect(shape(closed.stdout)).toEqual(shape(decided.stdout));
    expect(`${closed.stdout}${closed.stderr}`).toContain('because of X');
  });

  it('answers an event it cannot read with exit 2 and the reason', () => {
    const answer = bridge.failClosed(undefined, 'because of X');
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toContain('because of X');
  });

  it('keeps hostile bytes in a reason out of its answer', () => {
    for (const event of [undefined, ...bridge.events.map((row) => row.event)]) {
      const answer = bridge.failClosed(event, 'evil \u001b]0;title\u0007 \u202e');
      expect(`${answer.stdout}${answer.stderr}`).not.toMatch(/[\u001b\u0007\u202e]/);
    }
  });

  for (const transport of TRANSPORTS) {
    const unsupported = bridge.setup.unsupported(transport.kind);
    if (unsupported !== undefined) {
      // An agent without this kind of hook: `hookbox setup` prints the reason; apply must refuse too.
      it(`setup (${transport.kind}): refused with a reason that names the agent and the transport that works`, () => {
        expect(unsupported).toContain(bridge.label);
        expect(unsupported).toContain(`no ${transport.kind} hooks`);
        expect(unsupported).toMatch(/use --transport [a-z]+$/);
        const concrete = JSON.parse(JSON.stringify(transport).replaceAll('AGENT', bridge.name)) as SetupTransport;
        expect(() => bridge.setup.apply({ hooks: {} }, concrete)).toThrow(/hooks only/);
      });
      continue;
    }
    it(`setup (${transport.kind}): apply is idempotent, remove gives the original settings back`, () => {
      const concrete = JSON.parse(JSON.stringify(transport).replaceAll('AGENT', bridge.name)) as SetupTransport;
      const original = { theme: 'dark', hooks: {}, nested: { keep: [1, 2, 3] } };
      const once = bridge.setup.apply(original, concrete);
      expect(once.changes.length).toBeGreaterThan(0);
      const twice = bridge.setup.apply(once.settings, concrete);
      expect(twice.settings).toEqual(once.settings);
      expect(twice.changes.every((change) => change.action === 'unchanged')).toBe(true);
      const removed = bridge.setup.remove(once.settings).settings;
      expect({ ...removed, hooks: removed.hooks ?? {} }).toEqual(original);
      expect(bridge.setup.tradeOff(transport.kind).length).toBeGreaterThan(20);
    });
  }
});

/** The bridge's answer to the decision a failing hook contributes under the closed policy (the seam's default where it has none). */
function closedDecisionAnswer(bridge: AgentBridge, event: AgentSeamEvent): AgentAnswer {
  const seam = seamDefinition(event.seam);
  const faulted = seam.faultDecision(hookFault('plugin-error', 'because of X'), 'closed', 'conformance');
  return bridge.answer(event, (faulted ?? seam.defaultDecision(event.payload as never)) as never);
}

function isNoOpinion(answer: AgentAnswer): boolean {
  return answer.exitCode === 0 && answer.stdout === '' && answer.stderr === '';
}

/** The key paths of a JSON answer (its form, without the texts). */
function shape(stdout: string): string[] {
  if (stdout === '') return [];
  const paths = (value: unknown, at: string): string[] =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value).flatMap(([key, inner]) => [`${at}${key}`, ...paths(inner, `${at}${key}.`)]) : [];
  return paths(JSON.parse(stdout), '').sort();
}

describe('the agent folders', () => {
  // Folders under host/agents/ that hold a format several agents share, not an agent.
  const SHARED_FORMATS = ['claude-format'];

  it("are the registry's agents (AGENT_NAMES) and the shared formats, nothing else", () => {
    const folders = readdirSync(new URL('../../host/agents/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => !SHARED_FORMATS.includes(name)).sort()).toEqual([...AGENT_NAMES].sort());
    for (const format of SHARED_FORMATS) expect(folders).toContain(format);
  });
});

describe('bridges whose events carry no name (the command line names the event)', () => {
  const unnamed = Object.values(AGENT_BRIDGES).filter((bridge) => bridge.eventOnCommandLine === true);

  it('there is one (Copilot CLI\'s own format), and each refuses its own probe event unless the command line names it', () => {
    expect(unnamed.map((bridge) => bridge.name)).toContain('copilot');
    for (const bridge of unnamed) {
      expect(bridge.probe.eventName, `${bridge.name} names its probe's event`).toBeDefined();
      const probe = bridge.probe.event('/tmp');
      expect(bridge.toSeam(probe, bridge.probe.eventName).kind, bridge.name).toBe('seam');
      expect(bridge.toSeam(probe).kind, bridge.name).toBe('invalid');
    }
  });
});

describe('setup transports across the bridges', () => {
  it('every bridge takes command hooks or (an agent that loads hookbox in its own process) a plugin, and each transport has at least one bridge that takes it', () => {
    for (const bridge of Object.values(AGENT_BRIDGES)) {
      const plugin = bridge.setup.plugin !== undefined;
      expect(bridge.setup.unsupported(plugin ? 'plugin' : 'command'), bridge.name).toBeUndefined();
      // A plugin agent's settings are the plugin file: a text format of its own, written whole.
      if (plugin) expect(bridge.setup.fileFormat, bridge.name).toBeDefined();
    }
    for (const transport of TRANSPORTS) {
      expect(Object.values(AGENT_BRIDGES).some((bridge) => bridge.setup.unsupported(transport.kind) === undefined), transport.kind).toBe(true);
    }
  });
});
