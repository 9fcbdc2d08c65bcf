/**
 * A pin holds the whole sha256: a digest that differs from the wasm's in
 * its last hex digit alone is a changed hook, both for `checkPin` (what
 * `hookbox verify` reports) and for the loader every command uses.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPin, loadHooks, loadOperatorConfig } from '../../host/config/index.ts';
import { HookLoadError } from '../../host/errors.ts';
import { HookRunner } from '../../host/runner/index.ts';
import { writeCorpusWasm } from '../helpers/wat.ts';

let dir: string;
let wasm: string;
let digest: string;

/** The digest with only its last hex digit changed. */
function lastDigitOff(hex: string): string {
  const last = hex.at(-1)!;
  return `${hex.slice(0, -1)}${last === '0' ? '1' : '0'}`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-pin-digest-'));
  wasm = await writeCorpusWasm('allow', dir);
  digest = createHash('sha256').update(await readFile(wasm)).digest('hex');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a pin compares all 64 hex digits', () => {
  it('checkPin: the exact digest is ok; one off in the last digit (or the first) is changed, with both digests', () => {
    expect(checkPin({ wasm, pin: { sha256: digest } })).toMatchObject({ status: 'ok', problems: [] });
    const off = lastDigitOff(digest);
    expect(off).not.toBe(digest);
    expect(off.slice(0, 63)).toBe(digest.slice(0, 63));
    expect(checkPin({ wasm, pin: { sha256: off } })).toMatchObject({ status: 'changed', problems: [{ what: 'wasm', expected: off, actual: digest }] });
    const firstOff = `${digest[0] === '0' ? '1' : '0'}${digest.slice(1)}`;
    expect(checkPin({ wasm, pin: { sha256: firstOff } })).toMatchObject({ status: 'changed' });
  });

  it('the loader refuses a hook whose pin differs only in its last digit, naming the pinned and the actual digest', async () => {
    const off = lastDigitOff(digest);
    const file = path.join(dir, 'hookbox.config.json');
    await writeFile(file, JSON.stringify({ hooks: [{ name: 'a', wasm: path.basename(wasm), pin: { sha256: off } }] }));
    const runner = await HookRunner.start();
    try {
      const error = await loadHooks(loadOperatorConfig(file), runner).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(HookLoadError);
      expect((error as Error).message).toContain(`the pinned hook changed: ${wasm}: the wasm has sha256 ${digest}, the config pinned ${off}`);
    } finally {
      await runner.close();
    }
  }, 60_000);
});
