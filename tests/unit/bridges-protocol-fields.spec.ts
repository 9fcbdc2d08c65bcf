/**
 * The field allow-lists of a Claude Code / Codex hook's exit-0 JSON output
 * (host/bridges/protocol-fields.ts) on their own: every documented field of
 * each event is taken and typed, and each field hookbox cannot honour is
 * refused with a message naming it — refused fields, flat fields that belong
 * in hookSpecificOutput, fields of another event, unknown fields, wrong types
 * and decisions the event does not take. What the fields decide is
 * protocol-output.ts's (its golden tables and fuzz test).
 */
import { describe, expect, it } from 'vitest';
import { checkOutputFields } from '../../host/bridges/protocol-fields.ts';

const problem = (raw: Record<string, unknown>, seam: Parameters<typeof checkOutputFields>[1] = 'tools/pre-execute', protocol: 'claude-code' | 'codex' = 'claude-code') => {
  const checked = checkOutputFields(protocol, seam, raw);
  return 'problem' in checked ? checked.problem : undefined;
};

describe('protocol output fields', () => {
  it('takes every documented field of each event and returns it typed', () => {
    const common = { continue: true, stopReason: 'r', suppressOutput: false, systemMessage: 'm' };
    expect(
      checkOutputFields('claude-code', 'tools/pre-execute', {
        ...common,
        decision: 'approve',
        reason: 'ok',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
      }),
    ).toEqual({
      output: { ...common, decision: 'approve', reason: 'ok', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } },
    });
    for (const [seam, event] of [
      ['agent/prompt-submit', 'UserPromptSubmit'],
      ['tools/post-execute', 'PostToolUse'],
      ['agent/session-start', 'SessionStart'],
    ] as const) {
      expect(problem({ hookSpecificOutput: { hookEventName: event, additionalContext: 'c' } }, seam)).toBeUndefined();
    }
    expect(problem({ decision: 'block', reason: 'again' }, 'agent/turn-continuation')).toBeUndefined();
    expect(problem({}, 'agent/session-start')).toBeUndefined();
  });

  it('refuses the documented fields hookbox does not offer, flat or inside hookSpecificOutput', () => {
    expect(problem({ updatedInput: { command: 'ls' } })).toMatch(/^output\.updatedInput: input rewrite is taken only on PreToolUse/);
    // PreToolUse's own updatedInput is a rewrite (protocol-output.ts reads it back); another event's is refused.
    expect(problem({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: {} } })).toBeUndefined();
    expect(problem({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedInput: {} } }, 'tools/post-execute')).toMatch(/^output\.hookSpecificOutput\.updatedInput: input rewrite/);
    expect(problem({ hookSpecificOutput: { updatedMCPToolOutput: 'x' } }, 'tools/post-execute')).toMatch(
      /^output\.hookSpecificOutput\.updatedMCPToolOutput: tool output replacement/,
    );
  });

  it('refuses a field found flat that only means something inside hookSpecificOutput, naming the agent that would ignore it', () => {
    expect(problem({ permissionDecision: 'deny' })).toBe(
      'output.permissionDecision: only meaningful inside hookSpecificOutput ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": …}}); Claude Code would ignore it here, hookbox refuses it rather than drop it',
    );
    expect(problem({ additionalContext: 'c' }, 'agent/prompt-submit', 'codex')).toMatch(/"hookEventName": "UserPromptSubmit".*Codex would ignore it here/);
  });

  it("refuses unknown fields, a hookSpecificOutput that is no object or names another event, and another event's fields", () => {
    expect(problem({ allow: true }, 'tools/pre-execute', 'codex')).toBe('output.allow: not a Codex hook output field');
    expect(problem({ hookSpecificOutput: 'deny' })).toBe('output.hookSpecificOutput: expected an object');
    expect(problem({ hookSpecificOutput: [] })).toBe('output.hookSpecificOutput: expected an object');
    expect(problem({ hookSpecificOutput: { hookEventName: 'PostToolUse' } })).toBe(
      'output.hookSpecificOutput.hookEventName: expected "PreToolUse" for tools/pre-execute, got "PostToolUse"',
    );
    expect(problem({ hookSpecificOutput: { additionalContext: 'c' } })).toMatch(/^output\.hookSpecificOutput\.additionalContext: a tools\/pre-execute decision carries no context/);
    expect(problem({ hookSpecificOutput: { permissionDecision: 'deny' } }, 'tools/post-execute')).toBe(
      'output.hookSpecificOutput.permissionDecision: not a PostToolUse hookSpecificOutput field',
    );
    expect(problem({ hookSpecificOutput: {} }, 'agent/turn-continuation')).toMatch(/^output\.hookSpecificOutput: Stop hooks have no hookSpecificOutput/);
  });

  it('refuses a field of the wrong type and a decision the event does not take', () => {
    expect(problem({ continue: 'no' })).toMatch(/^output\.continue: /);
    expect(problem({ hookSpecificOutput: { permissionDecision: 1 } })).toMatch(/^output\.hookSpecificOutput\.permissionDecision: /);
    expect(problem({ decision: 'deny' })).toBe('output.decision: expected "approve" or "block", got "deny"');
    expect(problem({ decision: 'approve' }, 'tools/post-execute')).toBe('output.decision: expected "block", got "approve"');
    expect(problem({ decision: 'block' }, 'agent/session-start')).toBe('output.decision: SessionStart takes no decision, got "block"');
  });
});
