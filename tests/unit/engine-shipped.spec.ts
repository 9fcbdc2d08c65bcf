/**
 * The engine an installed package ships (`dist/engine/engine.wasm`, its
 * digest in `engine.json`) is loaded only when its bytes match the record:
 * changed bytes, a record without its digest (or with a malformed one), a
 * record that is not JSON, and either file missing are each refused with a
 * BuildError naming the file. Run on a copy of this build's real engine.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildError } from '../../host/errors.ts';
import { SHIPPED_ENGINE_DIR, shippedEngine } from '../../pdk/engine/build.ts';
import { skipUnless } from '../helpers/skips.ts';

const noBuild = (() => {
  try {
    readFileSync(join(SHIPPED_ENGINE_DIR, 'engine.json'));
    return undefined;
  } catch {
    return `no packed engine in ${SHIPPED_ENGINE_DIR} (run npm run build)`;
  }
})();

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookbox-engine-'));
  if (noBuild !== undefined) return;
  for (const file of ['engine.wasm', 'engine.json']) copyFileSync(join(SHIPPED_ENGINE_DIR, file), join(dir, file));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The BuildError `shippedEngine(dir)` throws (failing when it throws none). */
function refusal(): BuildError {
  try {
    shippedEngine(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    return error as BuildError;
  }
  throw new Error(`${dir}: the engine was accepted`);
}
const meta = () => JSON.parse(readFileSync(join(dir, 'engine.json'), 'utf8')) as Record<string, unknown>;

describe('the shipped engine’s integrity check', () => {
  it('the untouched copy loads', (context) => {
    if (skipUnless('engine-shipped', noBuild)) return context.skip();
    expect(shippedEngine(dir)).toBe(join(dir, 'engine.wasm'));
  });

  it('one changed byte: refused, naming engine.wasm and both digests', (context) => {
    if (skipUnless('engine-shipped', noBuild)) return context.skip();
    const bytes = readFileSync(join(dir, 'engine.wasm'));
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0x01;
    writeFileSync(join(dir, 'engine.wasm'), bytes);
    expect(refusal().message).toMatch(new RegExp(`^${join(dir, 'engine.wasm')}: sha256 [0-9a-f]{64} does not match the ${String(meta().sha256)} recorded in engine\\.json`));
  });

  const RECORDS: readonly [string, (record: Record<string, unknown>) => unknown, RegExp][] = [
    ['no digest field', ({ sha256: _, ...rest }) => rest, /engine\.json: sha256: /],
    ['a digest of the wrong form', (record) => ({ ...record, sha256: 'abc' }), /engine\.json: sha256: expected 64 lowercase hex digits/],
    ['a digest of null', (record) => ({ ...record, sha256: null }), /engine\.json: sha256: /],
    ['no fields at all', () => ({}), /engine\.json: key: .*; sha256: .*; bytes: /],
    ['an array', () => [], /engine\.json: \(root\): /],
  ];
  for (const [name, edit, why] of RECORDS) {
    it(`engine.json with ${name}: refused, naming engine.json and the field`, (context) => {
      if (skipUnless('engine-shipped', noBuild)) return context.skip();
      writeFileSync(join(dir, 'engine.json'), JSON.stringify(edit(meta())));
      expect(refusal().message).toMatch(why);
    });
  }

  it('engine.json that is not JSON: refused, naming it', (context) => {
    if (skipUnless('engine-shipped', noBuild)) return context.skip();
    writeFileSync(join(dir, 'engine.json'), '{"sha256": ');
    expect(refusal().message).toMatch(new RegExp(`^${join(dir, 'engine.json')}: not JSON`));
  });

  for (const file of ['engine.wasm', 'engine.json']) {
    it(`${file} missing: refused, naming it`, (context) => {
      if (skipUnless('engine-shipped', noBuild)) return context.skip();
      rmSync(join(dir, file));
      expect(refusal().message).toMatch(new RegExp(`^${join(dir, file)}: hookbox's JS engine is missing or unreadable .*\\(ENOENT\\)`));
    });
  }
});
