/**
 * Two sessions written for the report's golden pages: between them they hold
 * every event type, every decision word, every fault kind, every turn-end
 * reason, a replaced and a withheld tool result, an ask answered each way,
 * an unsandboxed shell hook, hook log lines at every level, durations from
 * microseconds to seconds, and hostile text (markup, terminal escapes, bidi
 * overrides, a very long line) where a log can carry it.
 */
import type { SessionEvent } from '../../../host/log/index.ts';

type Invoke = Extract<SessionEvent, { type: 'hook/invoke' }>;
const invoke = (fields: Omit<Invoke, 'type' | 'applied'> & { applied?: unknown }): SessionEvent => ({ type: 'hook/invoke', applied: null, ...fields });

/** Hostile text a hook or a tool could put in a log. */
export const HOSTILE = '<script>alert(1)</script>\x1b]0;pwned\x07 \u202egnp.exe\u202c & "quotes" \'single\'';

export const SESSION_A: readonly SessionEvent[] = [
  { type: 'session/start', sessionId: 'sess-a', cwd: '/work/app', source: 'startup', at: '2026-12-01T10:00:00.000Z' },
  invoke({ hook: 'rules', seam: 'agent/session-start', durationUs: 35, outcome: 'decision', decision: { additionalContext: 'Use pnpm.' }, applied: { additionalContext: 'Use pnpm.' } }),
  { type: 'context/message', turn: 1, content: 'Use pnpm.', source: 'session-start' },
  { type: 'turn/start', turn: 1, at: '2026-12-01T10:00:01.000Z' },
  invoke({ turn: 1, step: 0, hook: 'prompt-guard', seam: 'agent/prompt-submit', durationUs: 120, outcome: 'decision', decision: { action: 'allow', content: 'tidy the repo (no force push)' }, applied: { action: 'allow', content: 'tidy the repo (no force push)' } }),
  { type: 'user/message', turn: 1, content: 'tidy the repo (no force push)', originalContent: 'tidy the repo' },
  { type: 'assistant/message', turn: 1, step: 1, content: `I will clean up.\n${HOSTILE}`, toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'rm -rf /' } }] },
  { type: 'tool/call', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', arguments: { command: 'rm -rf /' } },
  invoke({ turn: 1, step: 1, hook: 'guard-bash', digest: 'sha256:1111', sandbox: 'wasm', seam: 'tools/pre-execute', durationUs: 310, outcome: 'decision', decision: { action: 'deny', reason: `wipes the disk ${HOSTILE}` }, applied: { action: 'deny', reason: `wipes the disk ${HOSTILE}` } }),
  { type: 'tool/result', turn: 1, step: 1, toolCallId: 'c1', toolName: 'bash', content: 'Tool call denied by a hook: wipes the disk', isError: true, hookEffect: 'denied' },
  { type: 'tool/call', turn: 1, step: 2, toolCallId: 'c2', toolName: 'bash', arguments: { command: 'git push origin main' } },
  invoke({ turn: 1, step: 2, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 280, outcome: 'decision', decision: { action: 'ask', reason: 'pushes to main' }, applied: { action: 'ask', reason: 'pushes to main' } }),
  invoke({ turn: 1, step: 2, hook: 'legacy-check', sandbox: 'shell', seam: 'tools/pre-execute', durationUs: 48_000, outcome: 'decision', decision: { action: 'ask' }, applied: { action: 'ask' } }),
  { type: 'tool/ask', turn: 1, step: 2, toolCallId: 'c2', asks: [{ hook: 'guard-bash', reason: 'pushes to main' }, { hook: 'legacy-check' }], answer: 'allow', reason: 'pushes to main (allowed by the user)' },
  { type: 'tool/result', turn: 1, step: 2, toolCallId: 'c2', toolName: 'bash', content: 'Everything up-to-date', isError: false },
  invoke({ turn: 1, step: 2, hook: 'secret-redactor', seam: 'tools/post-execute', durationUs: 1_900, outcome: 'decision', decision: { action: 'accept' }, applied: { action: 'accept' } }),
  { type: 'tool/call', turn: 1, step: 3, toolCallId: 'c3', toolName: 'read_file', arguments: { path: '.env' } },
  invoke({ turn: 1, step: 3, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 90, outcome: 'no-opinion' }),
  invoke({ turn: 1, step: 3, hook: 'secret-redactor', seam: 'tools/post-execute', durationUs: 2_400, outcome: 'decision', decision: { action: 'accept', content: 'TOKEN=[redacted]', additionalContext: 'a secret was redacted' }, applied: { action: 'accept', content: 'TOKEN=[redacted]', additionalContext: 'a secret was redacted' } }),
  { type: 'tool/result', turn: 1, step: 3, toolCallId: 'c3', toolName: 'read_file', content: 'TOKEN=[redacted]', isError: false, hookEffect: 'replaced', original: { length: 18, sha256: 'ab'.repeat(32) } },
  { type: 'context/message', turn: 1, content: 'a secret was redacted', source: 'post-tool' },
  { type: 'tool/call', turn: 1, step: 4, toolCallId: 'c4', toolName: 'bash', arguments: { command: 'cat id_rsa' } },
  invoke({ turn: 1, step: 4, hook: 'audit-trail', seam: 'tools/pre-execute', durationUs: 1_000_000, outcome: 'fault', fault: { kind: 'timeout', message: 'ran past its 1000 ms deadline' }, applied: { action: 'deny', reason: 'audit-trail timed out' } }),
  { type: 'tool/result', turn: 1, step: 4, toolCallId: 'c4', toolName: 'bash', content: 'Tool call denied by a hook: audit-trail timed out', isError: true, hookEffect: 'denied' },
  { type: 'tool/call', turn: 1, step: 5, toolCallId: 'c5', toolName: 'bash', arguments: { command: 'printenv' } },
  { type: 'tool/result', turn: 1, step: 5, toolCallId: 'c5', toolName: 'bash', content: 'output withheld by a hook', isError: true, hookEffect: 'blocked' },
  invoke({ turn: 1, step: 5, hook: 'secret-redactor', seam: 'tools/post-execute', durationUs: 3_100, outcome: 'decision', decision: { action: 'block', reason: 'prints credentials' }, applied: { action: 'block', reason: 'prints credentials' } }),
  { type: 'hook/log', turn: 1, hook: 'secret-redactor', level: 'warn', message: `found 2 secrets ${HOSTILE}` },
  { type: 'hook/log', turn: 1, hook: 'audit-trail', level: 'info', message: 'recorded 5 calls' },
  { type: 'hook/log', turn: 1, hook: 'audit-trail', level: 'debug', message: 'flush' },
  { type: 'hook/log', turn: 1, hook: 'guard-bash', level: 'error', message: 'x'.repeat(2_500) },
  invoke({ turn: 1, step: 5, hook: 'test-gate', seam: 'agent/turn-continuation', durationUs: 12_000, outcome: 'decision', decision: { action: 'continue', reason: 'tests fail: 2 of 40' }, applied: { action: 'continue', reason: 'tests fail: 2 of 40' } }),
  { type: 'steering/message', turn: 1, content: 'tests fail: 2 of 40\nfix them before stopping' },
  invoke({ turn: 1, step: 6, hook: 'test-gate', seam: 'agent/turn-continuation', durationUs: 11_000, outcome: 'decision', decision: { action: 'stop' }, applied: { action: 'stop' } }),
  { type: 'turn/end', turn: 1, reason: 'completed', steps: 6 },
  { type: 'turn/start', turn: 2, at: '2026-12-01T10:01:00.000Z' },
  invoke({ turn: 2, step: 0, hook: 'prompt-guard', seam: 'agent/prompt-submit', durationUs: 400, outcome: 'decision', decision: { action: 'block', reason: 'holds an AWS key' }, applied: { action: 'block', reason: 'holds an AWS key' } }),
  { type: 'prompt/blocked', turn: 2, reason: 'holds an AWS key', content: 'deploy with AKIAIOSFODNN7EXAMPLE' },
  { type: 'turn/end', turn: 2, reason: 'rejected', steps: 0, message: 'holds an AWS key' },
  { type: 'turn/start', turn: 3, at: '2026-12-01T10:02:00.000Z' },
  { type: 'user/message', turn: 3, content: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') },
  { type: 'tool/call', turn: 3, step: 1, toolCallId: 'c6', toolName: 'bash', arguments: { command: 'make' } },
  invoke({ turn: 3, step: 1, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 5, outcome: 'fault', fault: { kind: 'trap', message: 'unreachable executed' }, applied: { action: 'deny', reason: 'guard-bash trapped' } }),
  invoke({ turn: 3, step: 1, hook: 'mem-hog', seam: 'tools/pre-execute', durationUs: 7_500, outcome: 'fault', fault: { kind: 'memory', message: 'grew past 64 MiB' }, applied: null }),
  { type: 'tool/result', turn: 3, step: 1, toolCallId: 'c6', toolName: 'bash', content: 'Tool call denied by a hook: guard-bash trapped', isError: true, hookEffect: 'denied' },
  { type: 'turn/end', turn: 3, reason: 'max-steps', steps: 1, message: 'stopped after 1 step' },
];

export const SESSION_B: readonly SessionEvent[] = [
  { type: 'session/start', sessionId: `sess-b ${HOSTILE}`, cwd: '/work/other', source: 'resume', at: '2026-12-01T11:00:00.000Z' },
  invoke({ hook: 'rules', seam: 'agent/session-start', durationUs: 2_000_000, outcome: 'fault', fault: { kind: 'load', message: 'module failed to compile' }, applied: null }),
  { type: 'turn/start', turn: 1, at: '2026-12-01T11:00:01.000Z' },
  { type: 'user/message', turn: 1, content: 'run the tests' },
  { type: 'tool/call', turn: 1, step: 1, toolCallId: 'd1', toolName: 'bash', arguments: { command: 'npm test', timeout: 60 } },
  invoke({ turn: 1, step: 1, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 700, outcome: 'decision', decision: { action: 'ask', reason: 'runs scripts' }, applied: { action: 'ask', reason: 'runs scripts' } }),
  { type: 'tool/ask', turn: 1, step: 1, toolCallId: 'd1', asks: [{ hook: 'guard-bash', reason: 'runs scripts' }], answer: 'deny', reason: 'runs scripts (ask degraded to deny: no one to ask)' },
  { type: 'tool/result', turn: 1, step: 1, toolCallId: 'd1', toolName: 'bash', content: 'denied', isError: true, hookEffect: 'denied' },
  { type: 'tool/call', turn: 1, step: 2, toolCallId: 'd2', toolName: 'bash', arguments: { command: 'ls' } },
  invoke({ turn: 1, step: 2, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 650, outcome: 'decision', decision: { action: 'allow' }, applied: { action: 'allow' } }),
  { type: 'tool/result', turn: 1, step: 2, toolCallId: 'd2', toolName: 'bash', content: 'ls: cannot open directory', isError: true },
  invoke({ turn: 1, step: 2, hook: 'secret-redactor', seam: 'tools/post-execute', durationUs: 900, outcome: 'fault', fault: { kind: 'schema', message: 'action: expected one of accept|block' }, applied: { action: 'block', reason: 'secret-redactor returned an invalid decision' } }),
  invoke({ turn: 1, step: 2, hook: 'noisy', seam: 'tools/post-execute', durationUs: 60, outcome: 'fault', fault: { kind: 'output-too-large', message: 'over 1 MiB' }, applied: null }),
  invoke({ turn: 1, step: 2, hook: 'liar', seam: 'tools/post-execute', durationUs: 61, outcome: 'fault', fault: { kind: 'decode', message: 'not msgpack' }, applied: null }),
  invoke({ turn: 1, step: 2, hook: 'thrower', seam: 'tools/post-execute', durationUs: 62, outcome: 'fault', fault: { kind: 'plugin-error', message: 'TypeError: x is undefined' }, applied: null }),
  invoke({ turn: 1, step: 2, hook: 'empty', seam: 'tools/post-execute', durationUs: 63, outcome: 'fault', fault: { kind: 'missing-export', message: 'no post_tool export' }, applied: null }),
  { type: 'turn/end', turn: 1, reason: 'cancelled', steps: 2 },
  { type: 'turn/start', turn: 2, at: '2026-12-01T11:05:00.000Z' },
  { type: 'user/message', turn: 2, content: 'again' },
  { type: 'turn/end', turn: 2, reason: 'error', steps: 0, message: `the model provider answered 500 ${HOSTILE}` },
  // a turn that never started in the log (a log cut at the front looks like this)
  invoke({ turn: 3, step: 1, hook: 'guard-bash', seam: 'tools/pre-execute', durationUs: 250, outcome: 'no-opinion' }),
  { type: 'tool/call', turn: 3, step: 1, toolCallId: 'd3', toolName: 'write_file', arguments: { path: 'a.txt', content: 'x'.repeat(400) } },
];
