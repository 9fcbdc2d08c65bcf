import { describe, expect, it } from 'vitest';
import testGate from '../../examples-hooks/test-gate/hook.ts';
import {
  classifyTestRun,
  continuationReason,
  DEFAULT_TEST_COMMAND,
  exitCodeOf,
  maxContinuationsOf,
  parseRecord,
  STATE_KEY,
  testCommandPattern,
} from '../../examples-hooks/test-gate/policy.ts';
import { memoryContext } from '../../examples-hooks/shared/memory-context.ts';
import type { ContinuationDecision, PostToolDecision } from '../../pdk/index.ts';

const DEFAULT = new RegExp(DEFAULT_TEST_COMMAND);
const ok = (content = 'all passed\nexit code: 0') => ({ content, isError: false });

describe('test-gate policy', () => {
  it.each([
    ['ok\nexit code: 0', 0],
    ['FAIL a.test.ts\nexit code: 1\n', 1],
    ['killed\nexit code: 137  ', 137],
    ['exit code: 2', 2],
    ['no code here', undefined],
    ['exit code: 1\nmore output after it', undefined],
  ] as const)('exitCodeOf(%j) = %s', (content, code) => {
    expect(exitCodeOf(content)).toBe(code);
  });

  it.each([
    'npm test',
    'npm run test -- --watch=false',
    'pnpm test',
    'yarn test',
    'npx vitest run',
    'cd api && pytest -q',
    'go test ./...',
    'cargo   test',
    'make test',
  ])('recognises %j as a test command', (command) => {
    expect(classifyTestRun(command, ok(), DEFAULT)).toEqual({ failed: false, exitCode: 0 });
  });

  it.each(['npm install', 'ls tests', 'git commit -m "test"', 'echo testing'])('ignores %j', (command) => {
    expect(classifyTestRun(command, ok(), DEFAULT)).toBeUndefined();
  });

  it('fails on a non-zero exit code or an error result', () => {
    expect(classifyTestRun('npm test', ok('1 failed\nexit code: 1'), DEFAULT)).toEqual({ failed: true, exitCode: 1 });
    expect(classifyTestRun('npm test', { content: 'spawn error', isError: true }, DEFAULT)).toEqual({ failed: true });
    expect(classifyTestRun('npm test', ok('no code'), DEFAULT)).toEqual({ failed: false });
    expect(classifyTestRun(42, ok(), DEFAULT)).toBeUndefined();
  });

  it('reads Config testCommand, falling back (with a warning) on an invalid one', () => {
    expect(testCommandPattern('^bun test').pattern.source).toBe('^bun test');
    expect(testCommandPattern(undefined)).toEqual({ pattern: DEFAULT });
    expect(testCommandPattern('(')).toEqual({ pattern: DEFAULT, warning: expect.stringContaining('not a valid regular expression') });
  });

  it('reads Config maxContinuations, falling back to 3', () => {
    expect(maxContinuationsOf('5')).toBe(5);
    expect(maxContinuationsOf('0')).toBe(0);
    expect(maxContinuationsOf(undefined)).toBe(3);
    expect(maxContinuationsOf('-1')).toBe(3);
    expect(maxContinuationsOf('many')).toBe(3);
  });

  it('continues only for a failed run of this session and turn, below the cap', () => {
    const failed = { sessionId: 's', turn: 2, failed: true, exitCode: 1 };
    const now = { sessionId: 's', turn: 2, continuations: 0, max: 3 };
    expect(continuationReason(failed, now)).toBe(
      'test-gate: the last test run in this turn failed (exit code 1). Fix the failures and run the tests again before finishing (continuation 1 of 3).',
    );
    expect(continuationReason(failed, { ...now, continuations: 2 })).toContain('continuation 3 of 3');
    expect(continuationReason(failed, { ...now, continuations: 3 })).toBeUndefined();
    expect(continuationReason(failed, { ...now, turn: 3 })).toBeUndefined();
    expect(continuationReason(failed, { ...now, sessionId: 'other' })).toBeUndefined();
    expect(continuationReason({ ...failed, failed: false }, now)).toBeUndefined();
    expect(continuationReason(undefined, now)).toBeUndefined();
    expect(continuationReason({ sessionId: 's', turn: 2, failed: true }, now)).toContain('it reported an error');
  });

  it('parses stored records defensively', () => {
    expect(parseRecord('{"sessionId":"s","turn":1,"failed":true,"exitCode":2}')).toEqual({ sessionId: 's', turn: 1, failed: true, exitCode: 2 });
    expect(parseRecord('{"sessionId":"s","turn":"1","failed":true}')).toBeUndefined();
    expect(parseRecord('not json')).toBeUndefined();
    expect(parseRecord(undefined)).toBeUndefined();
  });
});

describe('test-gate hook (in Node, in-memory context sharing Var across calls)', () => {
  const vars = new Map<string, string>();
  const post = (command: string, content: string, turn = 1, config: Record<string, string> = {}) =>
    testGate.handlers.postTool?.(
      { toolCallId: 'c', toolName: 'bash', arguments: { command }, result: { content, isError: false } },
      memoryContext<PostToolDecision>({ vars, config, session: { turn } }),
    );
  const cont = (continuations: number, turn = 1, config: Record<string, string> = {}) =>
    testGate.handlers.turnContinuation?.({ continuations }, memoryContext<ContinuationDecision>({ vars, config, session: { turn } }));

  it('forces the turn on while the last test run failed, then stops having an opinion', () => {
    vars.clear();
    expect(post('npm test', '2 failed\nexit code: 1')).toBeUndefined(); // observer only
    expect(JSON.parse(vars.get(STATE_KEY) ?? '')).toEqual({ sessionId: 'session-1', turn: 1, failed: true, exitCode: 1 });
    expect(cont(0)).toEqual({ action: 'continue', reason: expect.stringContaining('exit code 1') });
    expect(cont(3)).toBeUndefined(); // loop guard: default cap 3
    expect(cont(1, 1, { maxContinuations: '1' })).toBeUndefined();
    expect(cont(0, 2)).toBeUndefined(); // another turn
    post('ls', 'x\nexit code: 1'); // not a test command: the record stays
    expect(cont(1)).toMatchObject({ action: 'continue' });
    post('npm test', 'all passed\nexit code: 0');
    expect(cont(1)).toBeUndefined();
  });

  it('uses Config testCommand', () => {
    vars.clear();
    post('bun test', 'fail\nexit code: 1', 1, { testCommand: '^bun test' });
    expect(cont(0)).toMatchObject({ action: 'continue' });
    vars.clear();
    post('bun test', 'fail\nexit code: 1');
    expect(cont(0)).toBeUndefined();
  });

  it('ignores tools other than bash', () => {
    vars.clear();
    testGate.handlers.postTool?.(
      { toolCallId: 'c', toolName: 'read', arguments: { command: 'npm test' }, result: { content: 'exit code: 1', isError: true } },
      memoryContext<PostToolDecision>({ vars }),
    );
    expect(vars.size).toBe(0);
  });
});
