/**
 * The real pi (`@mariozechner/pi-coding-agent` 0.73.1, headless `pi -p
 * --mode json`) against the mock chat-completions model on loopback: the
 * harness the hookbox extension's suite runs on (pi's own tools, its
 * provider from `$PI_CODING_AGENT_DIR/models.json`, offline).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentWorkspace } from '../helpers/agent-project.ts';
import { advertisedToolNames } from '../helpers/mock-model/advertised-tools.ts';
import { startChatMock, toolResults } from '../helpers/mock-model/openai-chat.ts';
import type { MockModel } from '../helpers/mock-model/script.ts';
import { PI_BIN, agentUnavailable, runPi, writePiAgentDir } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';

const unavailable = agentUnavailable(PI_BIN, '0.73.1');
const RUN_TIMEOUT = 300_000;

describe.skipIf(skipUnless('the real pi against the mock model', unavailable, { required: '@mariozechner/pi-coding-agent' }))(
  `the real pi against the mock model${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`,
  () => {
    const mocks: MockModel[] = [];
    const roots: string[] = [];
    afterAll(async () => {
      await Promise.all(mocks.map((mock) => mock.close()));
      for (const root of roots) rmSync(root, { recursive: true, force: true });
    });

    it('runs a scripted bash call in the project, and the model receives its output next', { timeout: RUN_TIMEOUT }, async () => {
      const ws = agentWorkspace('hookbox-pi-');
      roots.push(ws.root);
      const mock = await startChatMock([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo pi-ran > out.txt && echo wrote-it' } }] }, { text: 'finished' }]);
      mocks.push(mock);
      writePiAgentDir(ws.home, mock.url);
      const result = await runPi(ws.home, ws.project, 'write the file');
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(join(ws.project, 'out.txt'), 'utf8')).toBe('pi-ran\n');
      expect(mock.turns).toHaveLength(2);
      expect(toolResults(mock.turns[1]!)).toEqual(['wrote-it\n']);
      expect(advertisedToolNames('chat', mock.turns[0]!.body)).toEqual(expect.arrayContaining(['bash', 'read', 'write', 'edit']));
    });
  },
);
