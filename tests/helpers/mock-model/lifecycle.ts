/**
 * Starting and closing the mock model servers, written once. Every mock (the
 * Anthropic one, the chat-completions, Responses and Gemini ones) is a local
 * HTTP server that must be closed whatever the test did: a test that opens
 * one for itself runs inside {@link withMock}; a `describe` sharing one across
 * its tests takes {@link useMock}; a real-agent suite hands each to
 * `suite.open` (tests/helpers/agent-suite.ts), which closes them after it.
 */
import { afterAll, beforeAll } from 'vitest';
import { MockAnthropic, type MockReply, type MockScript } from '../mock-anthropic.ts';

/** What every mock model server has. */
export interface ClosableMock {
  close(): Promise<void>;
}

/** A started {@link MockAnthropic}, answering `script` when one is given. */
export async function startAnthropicMock(script?: MockScript | readonly MockReply[]): Promise<MockAnthropic> {
  const mock = new MockAnthropic();
  await mock.start();
  if (script !== undefined) mock.script(script);
  return mock;
}

/** Runs `use` with the mock `started` gives, and closes the mock after it, passed or failed. */
export async function withMock<M extends ClosableMock, T>(started: Promise<M>, use: (mock: M) => Promise<T>): Promise<T> {
  const mock = await started;
  try {
    return await use(mock);
  } finally {
    await mock.close();
  }
}

/**
 * A mock started before the `describe`'s tests and closed after them (call it
 * inside the `describe`); the getter fails, naming why, before it has started.
 */
export function useMock<M extends ClosableMock>(start: () => Promise<M>): () => M {
  let mock: M | undefined;
  beforeAll(async () => {
    mock = await start();
  });
  // Optional chaining: the start may have failed.
  afterAll(async () => {
    await mock?.close();
  });
  return () => {
    if (mock === undefined) throw new Error('the mock model is not started: useMock() must be called inside the describe, and is started in its beforeAll');
    return mock;
  };
}
