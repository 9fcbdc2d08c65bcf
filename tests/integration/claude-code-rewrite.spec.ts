/**
 * A pre-tool rewrite in the real Claude Code (`-p`, the exact
 * devDependency) through `hookbox serve`, against the mock Anthropic server
 * (docs/rfc-tool-input-rewrite.md, "Every agent"): a real wasm rewriter built
 * from tests/pdk/fixtures/rewrite/ turns `echo A > out.txt` into
 * `echo B > out.txt` and the file holds B (`updatedInput` with allow is
 * honoured in `-p` mode); a rewrite of an Edit's content has no exact way
 * back, so it is a deny whose reason the model reads, and the file is untouched.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupCommand } from '../../host/cli/commands/setup.ts';
import { readSessionLog } from '../../host/log/index.ts';
import { DecisionServer, loadServedHooks, readOrCreateToken } from '../../host/serve/index.ts';
import { buildHook } from '../../pdk/compiler/index.ts';
import { claudeWorkspace, probeClaude, runClaude } from '../helpers/claude-code.ts';
import { startAnthropicMock, withMock } from '../helpers/mock-model/lifecycle.ts';
import { skipUnless } from '../helpers/skips.ts';

const probe = probeClaude();
const NAME = 'Claude Code with a hookbox rewrite (real binary)';
const TITLE = probe.ok ? `Claude Code ${probe.version}: a hookbox rewrite (real binary)` : `${NAME} (skipped, because ${probe.reason})`;
const FIXTURES = fileURLToPath(new URL('../pdk/fixtures/rewrite/', import.meta.url));

describe.skipIf(skipUnless(NAME, probe.ok ? undefined : probe.reason, { required: '@anthropic-ai/claude-code' }))(TITLE, () => {
  let root: string;
  let server: DecisionServer;
  let config: string;
  let socket: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'hookbox-cc-rewrite-'));
    await buildHook({ entry: join(FIXTURES, 'rewriter.ts'), outFile: join(root, 'rewriter', 'hook.wasm') });
    const dir = join(root, 'serve');
    mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o700 });
    config = join(dir, 'hookbox.config.json');
    const hook = { name: 'a-to-b', manifest: join(root, 'rewriter', 'hook.json'), config: { mode: 'replace', from: 'echo A', to: 'echo B' }, timeoutMs: 5000 };
    writeFileSync(config, `${JSON.stringify({ hooks: [hook] }, null, 2)}\n`);
    socket = join(dir, 'run', 'serve.sock');
    const { token } = readOrCreateToken(join(dir, 'run', 'token'));
    server = new DecisionServer({ hooks: await loadServedHooks(config), socket, port: 0, token, maxContinuations: 3, log: () => {} });
    await server.listen();
  }, 240_000);

  afterAll(async () => {
    await server?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it(
    'Bash `echo A > out.txt` runs as `echo B > out.txt` (its description kept); an Edit whose content is rewritten is denied with the reason the model reads',
    async () => {
      const { project, home } = claudeWorkspace('hookbox-cc-rw-');
      writeFileSync(join(project, 'notes.txt'), 'old line\n');
      setupCommand('claude-code', { project, config, transport: 'command', socket }, () => {});
      await withMock(startAnthropicMock(), async (mock) => {
        mock.script([
          { toolUses: [{ name: 'Bash', input: { command: 'echo A > out.txt', description: 'write A', timeout: 60_000 } }] },
          { toolUses: [{ name: 'Read', input: { file_path: join(project, 'notes.txt') } }] },
          { toolUses: [{ name: 'Edit', input: { file_path: join(project, 'notes.txt'), old_string: 'old line', new_string: 'echo A again' } }] },
          { text: 'Done.' },
        ]);
        const run = await runClaude({ project, home, mock, prompt: 'Write the file, then edit the notes.', allowedTools: 'Bash Read Edit' });
        expect(run.result, run.stderr).toBeDefined();
        expect(readFileSync(join(project, 'out.txt'), 'utf8'), 'the rewritten command ran').toBe('B\n');
        const shown = mock.shown();
        // The model's view: the note of what ran (additionalContext), then the Edit's deny with its reason.
        expect(shown).toContain('[hookbox: this call was rewritten by a hook before it ran; it ran with arguments {\\"command\\":\\"echo B > out.txt\\",\\"timeoutMs\\":60000}]');
        expect(shown).toContain('a hookbox hook rewrote this call and the rewrite could not be applied in Claude Code (Edit: Edit takes old and new strings');
        expect(readFileSync(join(project, 'notes.txt'), 'utf8'), 'the denied Edit did not run').toBe('old line\n');
        const log = join(project, '.hookbox', 'sessions', `claude-code-${String(run.result?.session_id)}.jsonl`);
        const rewrites = readSessionLog(log).events.filter((event) => event.type === 'tool/rewrite');
        expect(rewrites).toMatchObject([
          { toolName: 'bash', original: { command: 'echo A > out.txt' }, arguments: { command: 'echo B > out.txt' }, hooks: ['a-to-b'] },
          { toolName: 'write_file', original: { content: 'echo A again' }, arguments: { content: 'echo B again' }, hooks: ['a-to-b'] },
        ]);
      });
    },
    240_000,
  );
});
