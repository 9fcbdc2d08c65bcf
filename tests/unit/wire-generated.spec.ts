/**
 * The wire between the per-event clients and `hookbox serve` is defined once
 * (host/wire.cjs, issue #50 item 2); the sh client and the native client's
 * header carry generated copies. These fail when a copy is stale, and when a
 * client still writes out a fact the wire holds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const { renderWireCopies } = (await import(pathToFileURL(join(root, 'scripts', 'gen-wire.mjs')).href)) as { renderWireCopies(): Record<string, string> };
const wire = createRequire(import.meta.url)('../../host/wire.cjs') as { MAX_ANSWER: number; PROJECT_DIR_VARIABLE: Record<string, string> };

describe('the wire’s generated copies', () => {
  it('the sh client’s block and host/cli/native/wire.h are up to date with host/wire.cjs (run `npm run gen`)', () => {
    for (const [path, expected] of Object.entries(renderWireCopies())) {
      expect(readFileSync(path, 'utf8'), `${relative(root, path)} is stale: run npm run gen`).toBe(expected);
    }
  });

  it('no client repeats a number, a header or a project variable outside the generated block', () => {
    const sh = readFileSync(join(root, 'host', 'cli', 'hookbox-hook.sh'), 'utf8');
    const outside = sh.slice(0, sh.indexOf('# BEGIN wire')) + sh.slice(sh.indexOf('# END wire'));
    const facts = [String(wire.MAX_ANSWER), 'x-hookbox-config', 'x-hookbox-nonce', '25000', ...Object.values(wire.PROJECT_DIR_VARIABLE)];
    for (const fact of facts) expect(outside.replace(/^#.*$/gm, ''), fact).not.toContain(fact);
    for (const file of ['host/cli/hookbox-hook.cjs', 'host/cli/hook-closed.cjs', 'host/agents/plugin-client.mjs', 'host/listener-proof.cjs']) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const fact of ["'x-hookbox-", '1024 * 1024', '= 107', '25_000', 'CLAUDE_PROJECT_DIR', "decision: 'block'"]) expect(text, `${file}: ${fact}`).not.toContain(fact);
    }
  });
});
