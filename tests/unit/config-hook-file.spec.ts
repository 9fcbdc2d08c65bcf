/**
 * `loadHookFile` (what `hookbox call` loads): a `.wasm`, or a hook.json
 * manifest, told apart by the extension and else by the first bytes. A wasm
 * file's hook is named after the file; the overrides each reach the spec.
 * Real files in a temp folder; every spec compared whole.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadHookFile } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { compileWat } from '../helpers/wat.ts';

let dir: string;
let data: string;
const sha = 'c'.repeat(64);

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-hook-file-')));
  data = path.join(dir, 'data');
  mkdirSync(data);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

const manifest = (fields: Record<string, unknown> = {}) => JSON.stringify({ name: 'from-manifest', version: '1.0.0', wasm: 'hook.wasm', sha256: sha, seams: ['tools/pre-execute'], ...fields });

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const GRANT = 'the grant given for this hook file (grant.allowedPaths)';

describe('a wasm file', () => {
  it.each([
    ['My  Hook!!.wasm', 'my-hook-'],
    ['.hidden.wasm', 'hidden'],
    ['---.wasm', 'hook'],
    ['v1.2_beta.wasm', 'v1.2_beta'],
    ['__init__.wasm', 'init__'],
    ['x.wasmy.wasm', 'x.wasmy'],
    ['Guard', 'guard'],
  ])('%s is the hook %s', async (name, expected) => {
    const file = write(name, await compileWat('allow'));
    expect(loadHookFile(file)).toStrictEqual({ name: expected, wasm: file, capabilities: {} });
  });

  it('a relative path resolves against the working directory', () => {
    const file = write('rel.wasm', '');
    expect(loadHookFile(path.relative(process.cwd(), file)).wasm).toBe(file);
  });

  it('takes every override; the grant is relative to the working directory and is all it gets', () => {
    const file = write('x.wasm', '');
    const spec = loadHookFile(file, {
      name: 'given',
      seams: ['tools/post-execute'],
      limits: { timeoutMs: 10, memoryMb: 4 },
      failPolicy: 'closed',
      config: { k: 'v' },
      grant: { allowedPaths: { [path.relative(process.cwd(), data)]: '/g' }, env: ['A'] },
      quarantineAfter: 7,
    });
    expect(spec).toStrictEqual({
      name: 'given',
      wasm: file,
      seams: ['tools/post-execute'],
      limits: { timeoutMs: 10, memoryMb: 4 },
      failPolicy: 'closed',
      config: { k: 'v' },
      capabilities: { allowedPaths: { [data]: '/g' }, env: ['A'] },
      quarantineAfter: 7,
    });
  });

  it('a granted path that does not exist names the override grant', () => {
    const file = write('x.wasm', '');
    const missing = path.join(dir, 'missing');
    expect(refusal(() => loadHookFile(file, { grant: { allowedPaths: { [missing]: '/m' } } }))).toBe(
      `${GRANT}: "${missing}" does not exist (or cannot be resolved); a granted path must be an existing directory`,
    );
  });
});

describe('wasm or manifest', () => {
  it('.wasm is wasm whatever its bytes; .json is a manifest whatever its bytes', () => {
    const odd = write('odd.wasm', manifest());
    expect(loadHookFile(odd)).toStrictEqual({ name: 'odd', wasm: odd, capabilities: {} });
    const list = write('list.json', '[]');
    expect(refusal(() => loadHookFile(list))).toBe(`${list}: (root): Invalid input: expected object, received array`);
  });

  it('without an extension: a manifest when its first bytes (after whitespace) are "{", else wasm; an unreadable path is wasm', async () => {
    write('hook.wasm', '');
    expect(loadHookFile(write('manifest', `\n  ${manifest()}`)).name).toBe('from-manifest');
    const plugin = write('plugin', await compileWat('allow'));
    expect(loadHookFile(plugin)).toStrictEqual({ name: 'plugin', wasm: plugin, capabilities: {} });
    const missing = path.join(dir, 'missing');
    expect(loadHookFile(missing)).toStrictEqual({ name: 'missing', wasm: missing, capabilities: {} });
  });
});

describe('a manifest file', () => {
  it('without overrides: its name, seams and tools, the wasm beside it pinned by its sha256, its limits', () => {
    const file = write('hook.json', manifest({ tools: ['bash'], limits: { timeoutMs: 900 }, capabilities: { env: ['LANG'] } }));
    expect(loadHookFile(file)).toStrictEqual({
      name: 'from-manifest',
      wasm: path.join(dir, 'hook.wasm'),
      sha256: sha,
      seams: ['tools/pre-execute'],
      tools: ['bash'],
      limits: { timeoutMs: 900 },
      config: {},
      capabilities: {},
    });
  });

  it('with every override: each wins over the manifest; an undefined limit leaves the manifest one', () => {
    const file = write('hook.json', manifest({ protocol: 'claude-code', tools: ['bash'], limits: { timeoutMs: 900, memoryMb: 32 }, capabilities: { allowedPaths: { data: '/data' }, clock: true } }));
    const spec = loadHookFile(file, {
      name: 'given',
      seams: ['tools/post-execute'],
      tools: ['read_file'],
      limits: { timeoutMs: undefined, memoryMb: 4 },
      failPolicy: 'open',
      config: { k: 'v' },
      grant: { allowedPaths: { [dir]: '/root' }, clock: true },
      quarantineAfter: 9,
    });
    expect(spec).toStrictEqual({
      name: 'given',
      wasm: path.join(dir, 'hook.wasm'),
      sha256: sha,
      codec: { name: 'claude-code', encode: expect.any(Function), decode: expect.any(Function) },
      seams: ['tools/post-execute'],
      tools: ['read_file'],
      limits: { timeoutMs: 900, memoryMb: 4 },
      failPolicy: 'open',
      config: { k: 'v' },
      capabilities: { allowedPaths: { [data]: '/data' }, clock: true },
      quarantineAfter: 9,
    });
  });

  it('a request the override grant does not give names the manifest and the grant', () => {
    const file = write('hook.json', manifest({ capabilities: { allowedPaths: { data: { path: '/data', write: true } } } }));
    expect(refusal(() => loadHookFile(file, { grant: { allowedPaths: { [data]: '/data' } } }))).toBe(
      `${file}: capabilities.allowedPaths: "${data}" asks for "write": true, but ${GRANT} grants "${data}" read-only (add "write": true to that grant to allow writes)`,
    );
  });
});
