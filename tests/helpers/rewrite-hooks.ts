/**
 * The rewrite inside the real agents (docs/rfc-tool-input-rewrite.md, "Every
 * agent"): an operator config of two real wasm rewriters built by the PDK
 * from tests/pdk/fixtures/rewrite/ — `a-to-b` turns `echo A` into `echo B`
 * in a shell command, `content-a-to-b` turns `AAA` into `BBB` in written
 * content (an edit's new text: no exact way back) — served by `hookbox serve`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildHook } from '../../pdk/compiler/index.ts';
import { type RunningServer, startHookboxServer } from './real-agents.ts';

const FIXTURES = fileURLToPath(new URL('../pdk/fixtures/rewrite/', import.meta.url));

/** The start of what the model reads for a rewrite its agent cannot take (`unappliedRewriteText`). */
export const UNAPPLIED = 'a hookbox hook rewrote this call and the rewrite could not be applied in';

/**
 * The one note the model reads about its rewritten `echo A > out.txt` (the
 * rule of docs/rfc-tool-input-rewrite.md, "The model's view"), as it must
 * reach the model's next request in every agent.
 */
export const REWRITE_NOTE = '[hookbox: this call was rewritten by hook "a-to-b" before it ran; it ran with arguments {"command":"echo B > out.txt"}]';

/** Builds the two rewriters into `<dir>` and writes `<dir>/rewrite.config.json`; returns its path. */
export async function writeRewriteConfig(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const name of ['rewriter', 'content']) await buildHook({ entry: join(FIXTURES, `${name}.ts`), outFile: join(dir, name, 'hook.wasm') });
  const config = join(dir, 'rewrite.config.json');
  const hooks = [
    // A loaded machine's first call into a fresh JS-engine instance can take seconds: room for it, as every real-agent case needs.
    { name: 'a-to-b', manifest: join(dir, 'rewriter', 'hook.json'), config: { mode: 'replace', from: 'echo A', to: 'echo B' }, timeoutMs: 5000 },
    { name: 'content-a-to-b', manifest: join(dir, 'content', 'hook.json'), config: { from: 'AAA', to: 'BBB' }, timeoutMs: 5000 },
  ];
  writeFileSync(config, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return config;
}

/** The rewrite config, served by `hookbox serve` in `<dir>/serve`. */
export async function serveRewriteHooks(dir: string): Promise<{ config: string; server: RunningServer }> {
  const config = await writeRewriteConfig(dir);
  const serveDir = join(dir, 'serve');
  mkdirSync(serveDir, { mode: 0o700 });
  return { config, server: await startHookboxServer(config, serveDir) };
}
