/**
 * The per-call costs the Claude Code import adds, printed (not part of `npm run bench`):
 * the program check (at import and at each `hookbox run` start), a CLAUDE_ENV_FILE read,
 * a permission rule match (each pre-tool call), a transcript line (each event).
 *
 *   npx tsx bench/import-checks.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClaudeTranscript, checkCommandPrograms, compileRule, parseEnvFile } from '../host/bridges/index.ts';
const time = (label: string, n: number, fn: () => void): void => { fn(); const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) fn(); console.log(`${label}: ${(Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1)} µs/op (n=${n})`); };
const env = { ...process.env, CLAUDE_PROJECT_DIR: process.cwd() };
time('checkCommandPrograms("uv run x.py") (PATH miss)', 2000, () => checkCommandPrograms('uv run x.py', { cwd: process.cwd(), env }));
time('checkCommandPrograms("\\"$CLAUDE_PROJECT_DIR\\"/host/cli/hookbox.mjs")', 2000, () => checkCommandPrograms('"$CLAUDE_PROJECT_DIR"/host/cli/hookbox.mjs', { cwd: process.cwd(), env }));
time('parseEnvFile (3 lines)', 20000, () => parseEnvFile('export A=1\nexport B="$A:x"\nexport C=$(id)\n', env));
const deny = compileRule('deny', 'Read(.env*)', 'x', '/p'); const bash = compileRule('deny', 'Bash(rm:*)', 'y', '/p');
if ('why' in deny || 'why' in bash) throw new Error('the rules should compile');
time('Read(.env*) match', 20000, () => deny.matches('read_file', { path: 'src/app.ts' }, process.cwd()));
time('Bash(rm:*) match on "ls && make test | tee log"', 20000, () => bash.matches('bash', { command: 'ls && make test | tee log' }, '/p'));
const dir = mkdtempSync(join(tmpdir(), 'fig-'));
const t = new ClaudeTranscript(join(dir, 't.jsonl'), { cwd: dir, onError: () => {} });
t.begin('s');
let i = 0;
time('ClaudeTranscript.record(assistant/message with 1 tool call)', 5000, () => t.record({ type: 'assistant/message', turn: 1, step: ++i, content: 'x', toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: 'ls' } }] }));
rmSync(dir, { recursive: true });
