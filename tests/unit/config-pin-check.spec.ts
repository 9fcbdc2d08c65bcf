/**
 * `checkPin` (what `hookbox verify` reports, and what the loader refuses on):
 * every way a wasm, a manifest or a package can differ from its pin, each a
 * problem naming the file and both sides; the whole result compared with
 * `toStrictEqual`. Manifest pins expected here are written out by hand (the
 * canonical JSON of each field and of the whole manifest, hashed).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HookPin, type ManifestPin, checkPin } from '../../host/config/index.ts';
import { compileWat } from '../helpers/wat.ts';

const hex = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const NULL = hex('null');

let scratch: string;
let manifestFile: string;
let wasmFile: string;
let packageFile: string;
let S: string;
let denyBytes: Uint8Array;
let D: string;

/** The manifest written by `beforeEach` (`allow`, 1.0.0, hook.wasm, pinning the allow plugin), as parsed. */
let parsed: Record<string, unknown>;
/** Its pin, by hand: every field's canonical JSON hashed, and the canonical whole (absent fields left out). */
let PIN: ManifestPin;

function handPin(sha256: string, whole: string): ManifestPin {
  return {
    sha256: hex(whole),
    fields: {
      name: hex('"allow"'),
      version: hex('"1.0.0"'),
      protocol: hex('1'),
      wasm: hex('"hook.wasm"'),
      sha256: hex(`"${sha256}"`),
      seams: hex('["tools/pre-execute"]'),
      tools: NULL,
      limits: NULL,
      capabilities: NULL,
      config: NULL,
      description: NULL,
    },
  };
}

beforeEach(async () => {
  scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookbox-pin-check-')));
  mkdirSync(path.join(scratch, 'pkg', 'dist'), { recursive: true });
  manifestFile = path.join(scratch, 'pkg', 'dist', 'hook.json');
  wasmFile = path.join(scratch, 'pkg', 'dist', 'hook.wasm');
  packageFile = path.join(scratch, 'pkg', 'package.json');
  const allow = await compileWat('allow');
  S = hex(allow);
  denyBytes = await compileWat('deny');
  D = hex(denyBytes);
  writeFileSync(wasmFile, allow);
  writeManifest({});
  writeFileSync(packageFile, JSON.stringify({ name: '@acme/allow', version: '1.0.0' }));
  parsed = { name: 'allow', version: '1.0.0', protocol: 1, wasm: 'hook.wasm', sha256: S, seams: ['tools/pre-execute'] };
  PIN = handPin(S, `{"name":"allow","protocol":1,"seams":["tools/pre-execute"],"sha256":"${S}","version":"1.0.0","wasm":"hook.wasm"}`);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function writeManifest(fields: Record<string, unknown>, file = manifestFile): void {
  writeFileSync(file, JSON.stringify({ name: 'allow', version: '1.0.0', wasm: 'hook.wasm', sha256: S, seams: ['tools/pre-execute'], ...fields }));
}

const packagePin = (extra: Partial<HookPin> = {}): HookPin => ({ package: '@acme/allow', version: '1.0.0', sha256: S, manifest: PIN, ...extra });

describe('status', () => {
  it('ok: the wasm, the manifest and the package match the pin; the result carries the digest, the manifest and its pin', () => {
    expect(checkPin({ manifest: manifestFile, pin: packagePin() })).toStrictEqual({ status: 'ok', wasmSha256: S, manifest: parsed, manifestPin: PIN, problems: [] });
    expect(checkPin({ wasm: wasmFile, pin: { sha256: S } })).toStrictEqual({ status: 'ok', wasmSha256: S, problems: [] });
  });

  it('unpinned: a manifest whose wasm matches it, a wasm, or nothing at all', () => {
    expect(checkPin({ manifest: manifestFile })).toStrictEqual({ status: 'unpinned', wasmSha256: S, manifest: parsed, manifestPin: PIN, problems: [] });
    expect(checkPin({ wasm: wasmFile })).toStrictEqual({ status: 'unpinned', wasmSha256: S, problems: [] });
    expect(checkPin({})).toStrictEqual({ status: 'unpinned', problems: [] });
  });
});

describe('the wasm', () => {
  it('missing or changed, against the config pin', () => {
    const gone = path.join(scratch, 'gone.wasm');
    expect(checkPin({ wasm: gone, pin: { sha256: S } })).toStrictEqual({
      status: 'changed',
      problems: [{ what: 'wasm', expected: S, actual: 'missing', message: `${gone}: cannot read the wasm (the config pinned sha256 ${S})` }],
    });
    writeFileSync(wasmFile, denyBytes);
    expect(checkPin({ wasm: wasmFile, pin: { sha256: S } })).toStrictEqual({
      status: 'changed',
      wasmSha256: D,
      problems: [{ what: 'wasm', expected: S, actual: D, message: `${wasmFile}: the wasm has sha256 ${D}, the config pinned ${S}` }],
    });
  });

  it("missing or changed, against an unpinned manifest's digest", () => {
    rmSync(wasmFile);
    expect(checkPin({ manifest: manifestFile }).problems).toStrictEqual([
      { what: 'wasm', expected: S, actual: 'missing', message: `${wasmFile}: cannot read the wasm (its manifest pins sha256 ${S})` },
    ]);
    writeFileSync(wasmFile, denyBytes);
    expect(checkPin({ manifest: manifestFile })).toStrictEqual({
      status: 'changed',
      wasmSha256: D,
      manifest: parsed,
      manifestPin: PIN,
      problems: [{ what: 'wasm', expected: S, actual: D, message: `${wasmFile}: the wasm has sha256 ${D}, its manifest pins ${S}` }],
    });
  });
});

describe('the manifest', () => {
  it('that cannot be read: expected is the pinned digest, or a readable hook.json', () => {
    const gone = path.join(scratch, 'gone.json');
    const problem = { what: 'manifest', actual: 'unreadable', message: `${gone}: cannot read the manifest: ENOENT` };
    expect(checkPin({ manifest: gone, pin: { sha256: S } })).toStrictEqual({ status: 'changed', problems: [{ ...problem, expected: S }] });
    expect(checkPin({ manifest: gone })).toStrictEqual({ status: 'changed', problems: [{ ...problem, expected: 'a readable hook.json' }] });
  });

  it('that is not JSON, or not a hook.json', () => {
    writeFileSync(manifestFile, 'not json');
    expect(checkPin({ manifest: manifestFile }).problems).toStrictEqual([
      { what: 'manifest', expected: 'a readable hook.json', actual: 'unreadable', message: `${manifestFile}: ${manifestFile}:1:1: invalid JSON: InvalidSymbol` },
    ]);
    writeFileSync(manifestFile, '{"name": "allow"}');
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S } })).toStrictEqual({
      status: 'changed',
      problems: [{ what: 'manifest', expected: S, actual: 'unreadable', message: `${manifestFile}: not a valid hook.json` }],
    });
  });

  it('that pins another wasm digest than the config: that problem alone, not also as a differing field', () => {
    writeManifest({ sha256: D });
    writeFileSync(wasmFile, denyBytes);
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S, manifest: PIN } }).problems).toStrictEqual([
      { what: 'manifest', fields: ['sha256'], expected: S, actual: D, message: `${manifestFile}: the manifest now pins sha256 ${D}, the config pinned ${S}` },
      { what: 'wasm', expected: S, actual: D, message: `${wasmFile}: the wasm has sha256 ${D}, the config pinned ${S}` },
    ]);
  });

  it("a reviewed manifest that pinned another wasm than the config's pin: its sha256 field differs", () => {
    const otherWhole = `{"name":"allow","protocol":1,"seams":["tools/pre-execute"],"sha256":"${D}","version":"1.0.0","wasm":"hook.wasm"}`;
    const reviewed = { sha256: hex(otherWhole), fields: { ...PIN.fields, sha256: hex(`"${D}"`) } };
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S, manifest: reviewed } }).problems).toStrictEqual([
      {
        what: 'manifest',
        fields: ['sha256'],
        expected: reviewed.sha256,
        actual: PIN.sha256,
        message: `${manifestFile}: sha256 differs from the reviewed manifest (pinned manifest sha256 ${reviewed.sha256}, now ${PIN.sha256})`,
      },
    ]);
  });

  it('one field that differs from the reviewed manifest "differs"; several "differ", in manifest order', () => {
    writeManifest({ version: '1.0.1' });
    const bumped = hex(`{"name":"allow","protocol":1,"seams":["tools/pre-execute"],"sha256":"${S}","version":"1.0.1","wasm":"hook.wasm"}`);
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S, manifest: PIN } }).problems).toStrictEqual([
      {
        what: 'manifest',
        fields: ['version'],
        expected: PIN.sha256,
        actual: bumped,
        message: `${manifestFile}: version differs from the reviewed manifest (pinned manifest sha256 ${PIN.sha256}, now ${bumped})`,
      },
    ]);
    writeManifest({ limits: { timeoutMs: 5 }, tools: ['bash'] });
    const widened = hex(`{"limits":{"timeoutMs":5},"name":"allow","protocol":1,"seams":["tools/pre-execute"],"sha256":"${S}","tools":["bash"],"version":"1.0.0","wasm":"hook.wasm"}`);
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S, manifest: PIN } }).problems).toStrictEqual([
      {
        what: 'manifest',
        fields: ['tools', 'limits'],
        expected: PIN.sha256,
        actual: widened,
        message: `${manifestFile}: tools, limits differ from the reviewed manifest (pinned manifest sha256 ${PIN.sha256}, now ${widened})`,
      },
    ]);
  });

  it('a pin whose whole digest was edited while every field matches: "manifest" differs', () => {
    const edited = 'f'.repeat(64);
    expect(checkPin({ manifest: manifestFile, pin: { sha256: S, manifest: { ...PIN, sha256: edited } } }).problems).toStrictEqual([
      {
        what: 'manifest',
        fields: ['manifest'],
        expected: edited,
        actual: PIN.sha256,
        message: `${manifestFile}: manifest differs from the reviewed manifest (pinned manifest sha256 ${edited}, now ${PIN.sha256})`,
      },
    ]);
  });

  it('a pin without its manifest part is refused, with how to re-pin: by package, or by hand', () => {
    const only = (pin: HookPin) => checkPin({ manifest: manifestFile, pin });
    const covers = `${manifestFile}: the config's pin covers only the wasm's sha256, not the manifest's seams, tools, limits and capabilities (an older hookbox wrote it); `;
    expect(only({ package: '@acme/allow', version: '1.0.0', sha256: S })).toStrictEqual({
      status: 'changed',
      wasmSha256: S,
      manifest: parsed,
      manifestPin: PIN,
      problems: [
        {
          what: 'manifest',
          expected: 'a pin of the whole manifest',
          actual: PIN.sha256,
          message: `${covers}run \`hookbox add @acme/allow\` again (or with the tarball or folder it came from) to review and re-pin it`,
        },
      ],
    });
    expect(only({ sha256: S }).problems).toStrictEqual([
      {
        what: 'manifest',
        expected: 'a pin of the whole manifest',
        actual: PIN.sha256,
        message: `${covers}add "manifest": ${JSON.stringify(PIN)} to the pin once you have reviewed ${manifestFile} (\`hookbox verify --json\` prints it as manifestPin)`,
      },
    ]);
  });
});

describe('the package', () => {
  const problem = (actual: string, expected = '@acme/allow@1.0.0') => ({
    what: 'package',
    expected,
    actual,
    message: `${packageFile}: the package is ${actual}, the config pinned ${expected}`,
  });

  it('another name or version than pinned; a pin without a version takes any version', () => {
    writeFileSync(packageFile, JSON.stringify({ name: '@acme/other', version: '1.0.0' }));
    expect(checkPin({ manifest: manifestFile, pin: packagePin() }).problems).toStrictEqual([problem('@acme/other@1.0.0')]);
    expect(checkPin({ manifest: manifestFile, pin: packagePin({ version: undefined }) }).problems).toStrictEqual([problem('@acme/other@1.0.0', '@acme/allow@*')]);
    writeFileSync(packageFile, JSON.stringify({ name: '@acme/allow', version: '2.0.0' }));
    expect(checkPin({ manifest: manifestFile, pin: packagePin() }).problems).toStrictEqual([problem('@acme/allow@2.0.0')]);
    expect(checkPin({ manifest: manifestFile, pin: packagePin({ version: undefined }) })).toMatchObject({ status: 'ok', problems: [] });
  });

  it('a package.json that is not JSON, or lacks a version, is unreadable', () => {
    writeFileSync(packageFile, '{');
    expect(checkPin({ manifest: manifestFile, pin: packagePin() }).problems).toStrictEqual([problem('unreadable')]);
    writeFileSync(packageFile, JSON.stringify({ name: '@acme/allow' }));
    expect(checkPin({ manifest: manifestFile, pin: packagePin() }).problems).toStrictEqual([problem('unreadable')]);
  });

  it('no package.json above the manifest', () => {
    const lone = path.join(scratch, 'lone', 'hook.json');
    mkdirSync(path.dirname(lone));
    writeManifest({}, lone);
    writeFileSync(path.join(scratch, 'lone', 'hook.wasm'), '');
    expect(checkPin({ manifest: lone, pin: packagePin({ manifest: undefined }) }).problems.filter((p) => p.what === 'package')).toStrictEqual([
      { what: 'package', expected: '@acme/allow@1.0.0', actual: 'missing', message: `${lone}: no package.json above the manifest (the config pinned @acme/allow@1.0.0)` },
    ]);
  });

  it('is checked even when the manifest cannot be read', () => {
    rmSync(manifestFile);
    writeFileSync(packageFile, JSON.stringify({ name: '@acme/allow', version: '0.9.0' }));
    expect(checkPin({ manifest: manifestFile, pin: packagePin() }).problems).toStrictEqual([
      { what: 'manifest', expected: S, actual: 'unreadable', message: `${manifestFile}: cannot read the manifest: ENOENT` },
      problem('@acme/allow@0.9.0'),
    ]);
  });
});
