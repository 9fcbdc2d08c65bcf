import { describe, expect, it } from 'vitest';
import { type AgentSeamEvent, factoryBridge as factory } from '../../host/agents/index.ts';

// The fields Factory Droid 0.225.2 sent a logging hook: no tool_use_id.
const common = { session_id: '0a4206ca-4734-4e55-9c79-d94d6f7658fd', transcript_path: '/h/.factory/sessions/x.jsonl', cwd: '/work/app', permission_mode: 'auto-low' };

function seamOf(input: Record<string, unknown>): AgentSeamEvent {
  const parsed = factory.toSeam({ ...common, ...input });
  if (parsed.kind !== 'seam') throw new Error(`expected a seam event, got ${JSON.stringify(parsed)}`);
  return parsed.event;
}

describe('Factory Droid bridge', () => {
  it('maps Execute, Read, Create, Edit and LS; other tools keep their names, unknown ones flagged; pre and post pair without tool_use_id', () => {
    const pre = (tool_name: string, tool_input: Record<string, unknown>) => seamOf({ hook_event_name: 'PreToolUse', tool_name, tool_input }).payload;
    expect(pre('Execute', { command: 'curl x | sh', summary: 'Install the tool now' })).toMatchObject({ toolName: 'bash', arguments: { command: 'curl x | sh' } });
    expect(pre('Read', { file_path: '/work/app/.env' })).toMatchObject({ toolName: 'read_file', arguments: { path: '.env' } });
    expect(pre('Create', { file_path: '/work/app/prod.env', content: 'T=1' })).toMatchObject({ toolName: 'write_file', arguments: { path: 'prod.env', content: 'T=1' } });
    expect(pre('Edit', { file_path: '/etc/hosts', old_str: 'a', new_str: 'b' })).toMatchObject({ toolName: 'write_file', arguments: { path: '/etc/hosts', content: 'b' } });
    expect(pre('LS', {})).toMatchObject({ toolName: 'list_dir', arguments: { path: '/work/app' } });
    expect(pre('Grep', { pattern: 'x' })).toMatchObject({ toolName: 'Grep', arguments: { pattern: 'x' } });
    expect(pre('Teleport', {})).toMatchObject({ toolName: 'Teleport', arguments: { _hookbox: { unmappedTool: true } } });
    expect(pre('Execute', { cmd: 'rm -rf /' })).toMatchObject({ toolName: 'Execute', arguments: { _hookbox: { unmappedTool: true } } });
    const input = { command: 'echo S1', summary: 'Print a short line' };
    const before = seamOf({ hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: input }).payload as { toolCallId: string };
    const after = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: input, tool_response: 'S1\n\n\n[Process exited with code 0]' }).payload as { toolCallId: string };
    expect(before.toolCallId).toMatch(/^factory-[0-9a-f]{16}$/);
    expect(after.toolCallId).toBe(before.toolCallId);
  });

  it('reads Execute\'s result with its exit code as hookbox\'s exit code line', () => {
    const post = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command: 'sh test.sh' }, tool_response: '1 failed\n\n\n[Process exited with code 1]' });
    expect(post.payload).toMatchObject({ toolName: 'bash', result: { content: '1 failed\nexit code: 1', isError: false } });
  });

  it('takes no replaced result (a replacement withholds); fails closed per event; setup writes .factory/settings.json without onFailure', () => {
    expect((factory.canReplace.toolResult as (name: string) => boolean)('bash')).toBe(false);
    const post = seamOf({ hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command: 'cat .env' }, tool_response: 'K=ghp_x' });
    expect(JSON.parse(factory.answer(post, { action: 'accept', content: 'K=[REDACTED]' }).stdout)).toMatchObject({ continue: false, decision: 'block' });
    expect(JSON.parse(factory.failClosed('PreToolUse', 'x').stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    const edit = factory.setup.apply({}, { kind: 'command', command: "sh '/opt/hookbox-hook.sh' factory" }, { answerTimeoutMs: 30_000 });
    expect(JSON.stringify(edit.settings)).not.toContain('onFailure');
    expect(factory.setup.remove(edit.settings).settings).toEqual({});
    expect(factory.setup.settingsPath({ kind: 'project', dir: '/p' })).toBe('/p/.factory/settings.json');
  });
});
