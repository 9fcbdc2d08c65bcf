/**
 * The manifest part of a pin: the canonical JSON it hashes (keys in
 * code-unit order, absent values dropped), one digest per field, and which
 * fields a changed manifest differs in. Expected digests are hashes of
 * canonical text written out by hand.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type HookManifest, type ManifestPin, canonicalJson, manifestDifferences, manifestPin } from '../../host/config/index.ts';

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('canonicalJson', () => {
  it('absent is null; scalars as JSON.stringify writes them', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(false)).toBe('false');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
  });

  it('arrays in their order, objects with keys sorted by code unit and undefined values left out, no whitespace', () => {
    expect(canonicalJson([1, 'a', null, undefined, [true]])).toBe('[1,"a",null,null,[true]]');
    expect(canonicalJson({ b: 1, a: { d: [true], c: 'x' }, u: undefined, '"q"': 0 })).toBe('{"\\"q\\"":0,"a":{"c":"x","d":[true]},"b":1}');
    expect(canonicalJson({ a: 3, _: 2, B: 1 })).toBe('{"B":1,"_":2,"a":3}');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });
});

describe('manifestPin', () => {
  it('of a manifest with every field: each field digested, and the whole', () => {
    const manifest: HookManifest = {
      name: 'guard',
      version: '2.0.0',
      protocol: 'codex',
      wasm: 'g.wasm',
      sha256: 'd'.repeat(64),
      seams: ['tools/pre-execute'],
      tools: ['bash'],
      limits: { timeoutMs: 5 },
      capabilities: { env: ['A'] },
      config: { mode: 'm' },
      description: 'd',
    };
    expect(manifestPin(manifest)).toStrictEqual({
      sha256: hex(
        `{"capabilities":{"env":["A"]},"config":{"mode":"m"},"description":"d","limits":{"timeoutMs":5},"name":"guard","protocol":"codex","seams":["tools/pre-execute"],"sha256":"${'d'.repeat(64)}","tools":["bash"],"version":"2.0.0","wasm":"g.wasm"}`,
      ),
      fields: {
        name: hex('"guard"'),
        version: hex('"2.0.0"'),
        protocol: hex('"codex"'),
        wasm: hex('"g.wasm"'),
        sha256: hex(`"${'d'.repeat(64)}"`),
        seams: hex('["tools/pre-execute"]'),
        tools: hex('["bash"]'),
        limits: hex('{"timeoutMs":5}'),
        capabilities: hex('{"env":["A"]}'),
        config: hex('{"mode":"m"}'),
        description: hex('"d"'),
      },
    });
  });
});

describe('manifestDifferences', () => {
  const fields = (overrides: Partial<ManifestPin['fields']> = {}): ManifestPin['fields'] => ({
    name: '1',
    version: '2',
    protocol: '3',
    wasm: '4',
    sha256: '5',
    seams: '6',
    tools: '7',
    limits: '8',
    capabilities: '9',
    config: '10',
    description: '11',
    ...overrides,
  });

  it('none when the whole digest matches, whatever the fields say', () => {
    expect(manifestDifferences({ sha256: 'w', fields: fields() }, { sha256: 'w', fields: fields({ name: 'x' }) })).toStrictEqual([]);
  });

  it('the differing fields in manifest order', () => {
    expect(manifestDifferences({ sha256: 'w', fields: fields() }, { sha256: 'v', fields: fields({ description: 'x', name: 'y', seams: 'z' }) })).toStrictEqual(['name', 'seams', 'description']);
  });

  it('"manifest" when the whole digest differs with every field equal (a pin edited by hand)', () => {
    expect(manifestDifferences({ sha256: 'w', fields: fields() }, { sha256: 'v', fields: fields() })).toStrictEqual(['manifest']);
  });
});
