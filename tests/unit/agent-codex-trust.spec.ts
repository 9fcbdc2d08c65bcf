/**
 * Codex's hook trust records: the `[hooks.state]` key of each event, and the
 * `trusted_hash` as SHA-256 over the normalized identity Codex hashes —
 * written out here as the JSON text itself, so a change to any field, its
 * default or the key order shows.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, codexHookHash, codexHookKey } from '../../host/agents/codex/trust.ts';

const sha = (json: string): string => `sha256:${createHash('sha256').update(json).digest('hex')}`;

describe('the trust key', () => {
  it.each([
    ['PreToolUse', 'pre_tool_use'],
    ['PermissionRequest', 'permission_request'],
    ['PostToolUse', 'post_tool_use'],
    ['PreCompact', 'pre_compact'],
    ['PostCompact', 'post_compact'],
    ['SessionStart', 'session_start'],
    ['SessionEnd', 'session_end'],
    ['UserPromptSubmit', 'user_prompt_submit'],
    ['SubagentStart', 'subagent_start'],
    ['SubagentStop', 'subagent_stop'],
    ['Stop', 'stop'],
  ])('%s is labelled %s', (event, label) => {
    expect(codexHookKey('/p/.codex/hooks.json', event, 2, 3)).toBe(`/p/.codex/hooks.json:${label}:2:3`);
    expect(codexHookHash(event, undefined, { command: 'x' })).toBe(sha(`{"event_name":"${label}","hooks":[{"async":false,"command":"x","timeout":600,"type":"command"}]}`));
  });

  it('refuses an event Codex has no label for', () => {
    expect(() => codexHookKey('/f', 'Notification', 0, 0)).toThrow(new Error('no Codex event label for Notification'));
    expect(() => codexHookHash('Notification', undefined, { command: 'x' })).toThrow(new Error('no Codex event label for Notification'));
  });
});

describe('the trusted hash', () => {
  it('hashes the matcher, timeout (whole seconds, at least 1), async and status message', () => {
    expect(codexHookHash('PreToolUse', 'Bash', { command: 'c', timeout: 30.9, async: true, statusMessage: 'checking' })).toBe(
      sha('{"event_name":"pre_tool_use","hooks":[{"async":true,"command":"c","statusMessage":"checking","timeout":30,"type":"command"}],"matcher":"Bash"}'),
    );
    expect(codexHookHash('PostToolUse', undefined, { command: 'c', timeout: 0, async: false })).toBe(
      sha('{"event_name":"post_tool_use","hooks":[{"async":false,"command":"c","timeout":1,"type":"command"}]}'),
    );
  });

  it('leaves the matcher out for UserPromptSubmit and Stop', () => {
    for (const [event, label] of [
      ['UserPromptSubmit', 'user_prompt_submit'],
      ['Stop', 'stop'],
    ] as const) {
      expect(codexHookHash(event, '.*', { command: 'c', timeout: 5 })).toBe(sha(`{"event_name":"${label}","hooks":[{"async":false,"command":"c","timeout":5,"type":"command"}]}`));
    }
  });
});

describe('canonical JSON', () => {
  it('sorts every object key, drops undefined members, keeps null, arrays in order', () => {
    expect(canonicalJson({ e: 5, c: null, a: [3, { z: undefined, y: 'q' }, null], d: undefined, b: { k: true, j: 1.5 } })).toBe(
      '{"a":[3,{"y":"q"},null],"b":{"j":1.5,"k":true},"c":null,"e":5}',
    );
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('s"')).toBe('"s\\""');
    expect(canonicalJson({ B: 1, a: 2, _: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"B":1,"_":3,"a":2}');
  });
});
