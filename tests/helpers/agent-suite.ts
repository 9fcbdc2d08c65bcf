/**
 * The shared frame of the real-agent suites (Codex, Gemini CLI): one
 * workspace, the suite's operator config and the trap config, a `hookbox
 * serve` for each, started before the suite and stopped (with every mock
 * model the suite opened) after it.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { agentWorkspace, writeAgentSuiteConfig, writeTrapConfig } from './agent-project.ts';
import type { ClosableMock } from './mock-model/lifecycle.ts';
import { type RunningServer, startHookboxServer } from './real-agents.ts';

/** What a real-agent suite shares; the configs and servers are set once `beforeAll` has run. */
export interface RealAgentSuite {
  readonly root: string;
  config: string;
  trapConfig: string;
  server: RunningServer;
  trapServer: RunningServer;
  /** Mock models the suite opened: closed after it. */
  readonly mocks: ClosableMock[];
  /** Keeps the mock `started` gives among the suite's (closed after it) and returns it. */
  open<M extends ClosableMock>(started: Promise<M>): Promise<M>;
}

/** Registers the suite's `beforeAll`/`afterAll` (call it inside the `describe`) and returns what they set up. */
export function useRealAgentSuite(prefix: string): RealAgentSuite {
  const workspace = agentWorkspace(prefix);
  const mocks: ClosableMock[] = [];
  const open = async <M extends ClosableMock>(started: Promise<M>): Promise<M> => {
    const mock = await started;
    mocks.push(mock);
    return mock;
  };
  const suite = { root: workspace.root, mocks, open } as RealAgentSuite;

  beforeAll(async () => {
    suite.config = writeAgentSuiteConfig(workspace.root);
    suite.trapConfig = await writeTrapConfig(workspace.root);
    suite.server = await startHookboxServer(suite.config, workspace.hookboxDir);
    const trapDir = join(workspace.root, 'trap-serve');
    mkdirSync(trapDir, { mode: 0o700 });
    suite.trapServer = await startHookboxServer(suite.trapConfig, trapDir);
  }, 300_000);

  afterAll(async () => {
    // Optional chaining: beforeAll may have failed before a server started.
    await Promise.all([suite.server?.stop(), suite.trapServer?.stop(), ...suite.mocks.map((mock) => mock.close())]);
    rmSync(workspace.root, { recursive: true, force: true });
  });

  return suite;
}
