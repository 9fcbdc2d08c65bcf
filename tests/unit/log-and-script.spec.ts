import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLogError } from '../../host/errors.ts';
import { SessionLogWriter, readSessionLog, repairTornTail } from '../../host/log/index.ts';
import { resolveAsk } from '../../host/loop/index.ts';
import { ScriptedProvider, loadScript } from '../../host/providers/scripted.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace();
});
afterEach(() => workspace.dispose());

describe('session log', () => {
  it('tolerates a torn last line and repairs it before appending', () => {
    const log = SessionLogWriter.open(workspace.logPath);
    log.append({ type: 'turn/start', turn: 1, at: 'now' });
    log.close();
    appendFileSync(workspace.logPath, '{"type":"user/mess');
    const read = readSessionLog(workspace.logPath);
    expect(read.events).toEqual([{ type: 'turn/start', turn: 1, at: 'now' }]);
    expect(read.tornBytes).toBe(18);
    expect(repairTornTail(workspace.logPath)).toBe(18);
    expect(readSessionLog(workspace.logPath).tornBytes).toBe(0);
  });

  it('a damaged line in the middle is an error naming the file and line', () => {
    writeFileSync(workspace.logPath, '{"type":"turn/start","turn":1,"at":"x"}\nnot json\n{"type":"turn/start","turn":2,"at":"y"}\n');
    expect(() => readSessionLog(workspace.logPath)).toThrow(SessionLogError);
    expect(() => readSessionLog(workspace.logPath)).toThrow(`${workspace.logPath}:2: not a JSON object`);
  });

  it('a line that is JSON but not an event names what is wrong', () => {
    writeFileSync(workspace.logPath, '{"type":"turn/end","turn":1,"reason":"exploded","steps":0}\n');
    expect(() => readSessionLog(workspace.logPath)).toThrow(/:1: not a session event \(reason: /);
  });
});

describe('scripted provider', () => {
  it('a malformed script names the file and the JSON path', () => {
    const path = join(workspace.dir, 'script.json');
    writeFileSync(path, JSON.stringify({ steps: [{ text: 'ok' }, { toolCalls: [{ id: 'c1', name: 'bash' }] }] }));
    expect(() => loadScript(path)).toThrow(`${path}: steps[1].toolCalls[0].arguments:`);
  });

  it('invalid JSON names line and column', () => {
    const path = join(workspace.dir, 'script.json');
    writeFileSync(path, '{\n  "steps": [,]\n}');
    expect(() => loadScript(path)).toThrow(`${path}:2:13: invalid JSON: ValueExpected`);
  });

  it('running out of steps is a clear error', async () => {
    const provider = new ScriptedProvider({ steps: [{ text: 'one' }] });
    const request = { messages: [], tools: [], signal: new AbortController().signal };
    expect(await provider.complete(request)).toEqual({ text: 'one', toolCalls: [] });
    await expect(provider.complete(request)).rejects.toThrow('script exhausted: model call #2, but the script has only 1 step(s)');
  });
});

describe('ask resolution', () => {
  const request = { toolCall: { id: 'c1', name: 'bash', arguments: {} }, asks: [{ hook: 'guard', reason: 'push?' }], reason: 'push?' };
  it('degrades to deny when the prompter does not answer in time', async () => {
    const never = { ask: () => new Promise<'allow'>(() => {}) };
    expect(await resolveAsk(never, request, 20)).toEqual({
      action: 'deny',
      reason: 'push? (ask degraded to deny: no answer within 20 ms)',
    });
  });
  it('degrades to deny when the prompter throws', async () => {
    const broken = { ask: async () => Promise.reject(new Error('no tty')) };
    expect((await resolveAsk(broken, request, 1000)).action).toBe('deny');
  });
});
