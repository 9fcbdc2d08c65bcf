/**
 * The real OpenCode (`opencode-ai` 1.18.33, headless `opencode run
 * --format json`) against the mock chat-completions model on loopback: the
 * harness the hookbox plugin's suite runs on (OpenCode's own tools, its
 * provider from the project's `opencode.json`, private XDG folders).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { advertisedToolNames } from '../helpers/mock-model/advertised-tools.ts';
import { agentTurnsOnly, startChatMock, toolResults } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel } from '../helpers/mock-model/script.ts';
import { OPENCODE_BIN, agentUnavailable, runOpenCode, writeOpenCodeProject } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';

const unavailable = agentUnavailable(OPENCODE_BIN, '1.18.33');
const RUN_TIMEOUT = 300_000;

describe.skipIf(skipUnless('the real OpenCode against the mock model', unavailable, { required: 'opencode-ai' }))(
  `the real OpenCode against the mock model${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`,
  () => {
    const mocks: MockModel[] = [];
    const roots: string[] = [];
    afterAll(async () => {
      await Promise.all(mocks.map((mock) => mock.close()));
      for (const root of roots) rmSync(root, { recursive: true, force: true });
    });

    it('runs a scripted bash call in the project, and the model receives its output next', { timeout: RUN_TIMEOUT }, async () => {
      const ws = agentWorkspace('hookbox-opencode-');
      roots.push(ws.root);
      const mock = await startChatMock(agentTurnsOnly([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo opencode-ran > out.txt && echo wrote-it', description: 'writes out.txt' } }] }, { text: 'finished' }]));
      mocks.push(mock);
      writeOpenCodeProject(ws.project, mock.url);
      const result = await runOpenCode(ws.home, ws.project, 'write the file');
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(join(ws.project, 'out.txt'), 'utf8')).toBe('opencode-ran\n');
      // OpenCode also asks for a session title, in a request without tools.
      const agentTurns = mock.turns.filter((turn) => advertisedToolNames('chat', turn.body).length > 0);
      expect(agentTurns).toHaveLength(2);
      expect(toolResults(agentTurns[1]!)).toEqual(['wrote-it\n']);
      expect(advertisedToolNames('chat', agentTurns[0]!.body)).toEqual(expect.arrayContaining(['bash', 'read', 'write', 'edit']));
    });
  },
);
