/**
 * The one suite every agent bridge passes (one module per agent, one
 * registry line each): its table, its refusal of bad input, its fail-closed
 * answer, and a settings merge that `--remove` undoes exactly.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_BRIDGES, type SetupTransport } from '../../host/agents/index.ts';
import { isSeamId } from '../../host/seams/index.ts';

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
