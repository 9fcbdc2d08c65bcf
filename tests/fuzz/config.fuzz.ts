/**
 * The config and manifest loaders (host/config): any file text → a config
 * (or manifest) value, or a `ConfigError` whose message names the file and
 * where in it (line and column for bad JSON, the JSON path for a bad value).
 * Nothing else is thrown. Inputs: arbitrary text, any JSON, and near-valid
 * configs and manifests with fields dropped, retyped or added.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HookManifestSchema, OperatorConfigSchema, loadManifest, loadOperatorConfig } from '../../host/config/index.ts';
import { ConfigError } from '../../host/errors.ts';
import { NASTY_KEYS } from './decisions.ts';
import { fuzzParams, fuzzTimeout } from './settings.ts';

const SMALL = 150;
const TIMEOUT = fuzzTimeout(SMALL, 30);
const dir = mkdtempSync(join(tmpdir(), 'hookbox-fuzz-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VALID_CONFIG = {
  $schema: 'https://example.invalid/hookbox.schema.json',
  hooks: [
    {
      name: 'guard',
      wasm: 'hooks/guard.wasm',
      tools: ['bash'],
      seams: ['tools/pre-execute'],
      timeoutMs: 500,
      failPolicy: 'closed',
      config: { denyPatterns: '^rm' },
      grant: { env: ['HOME'], allowedPaths: { data: '/data' }, clock: true },
      quarantineAfter: 3,
    },
    { name: 'imported', command: 'echo hi', unsandboxed: true, protocol: 'claude-code', seams: ['tools/pre-execute'], sources: ['startup'] },
    { name: 'manifested', manifest: 'hooks/m/hook.json', memoryMb: 32 },
  ],
  defaults: { timeoutMs: 1000, memoryMb: 64, maxOutputBytes: 1048576, quarantineAfter: 3, failPolicy: 'open', config: { a: 'b' } },
};

const VALID_MANIFEST = {
  name: 'guard-bash',
  version: '1.0.0',
  protocol: 1,
  wasm: 'guard-bash.wasm',
  sha256: 'a'.repeat(64),
  seams: ['tools/pre-execute', 'agent/prompt-submit'],
  tools: ['bash'],
  limits: { timeoutMs: 100, memoryMb: 16 },
  capabilities: { env: ['HOME'], clock: false, allowedPaths: { '/x': '/y' } },
  config: { k: 'v' },
  description: 'guards bash',
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path (as keys) to a value inside `value`. */
function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...paths(item, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(0, -1, 1.5, 600_001, 2 ** 53, '', ' ', 'closed', 'open', 'tools/pre-execute', 'claude-code', true, null, [], {}),
);
const key = fc.oneof(fc.constantFrom(...NASTY_KEYS, 'hooks', 'defaults', 'name', 'wasm', 'command', 'manifest', 'grant', 'unsandboxed'), fc.string({ maxLength: 6 }));

/** A valid document with 1–3 mutations (drop, replace with any JSON, add a key) at random places. */
function nearValid(base: Json): fc.Arbitrary<string> {
  const all = paths(base).filter((p) => p.length > 0);
  const mutation = fc.record({ path: fc.constantFrom(...all), op: fc.constantFrom('drop', 'set', 'add'), value: jsonValue, key });
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const doc = structuredClone(base);
    for (const m of mutations) {
      const parent = m.path.slice(0, -1).reduce<Json | undefined>((node, k) => (node as Record<string | number, Json> | undefined)?.[k], doc);
      const last = m.path[m.path.length - 1]!;
      if (parent === null || typeof parent !== 'object' || parent === undefined) continue;
      const target = parent as Record<string | number, Json>;
      if (m.op === 'drop') {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete target[last];
      } else if (m.op === 'set') {
        target[last] = m.value;
      } else {
        const child = target[last];
        // Own property even for "__proto__", as JSON.parse would make it.
        if (child !== null && typeof child === 'object' && !Array.isArray(child)) Object.defineProperty(child, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      }
    }
    return JSON.stringify(doc);
  });
}

function texts(base: Json): fc.Arbitrary<string> {
  const valid = JSON.stringify(base, null, 2);
  return fc.oneof(
    { weight: 4, arbitrary: nearValid(base) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    // Broken JSON: cut short, or a character spliced in.
    { weight: 1, arbitrary: fc.nat({ max: valid.length - 1 }).map((cut) => valid.slice(0, cut)) },
    { weight: 1, arbitrary: fc.tuple(fc.nat({ max: valid.length }), fc.constantFrom(',', '}', '"', '/', '\u0000', '//c\n', '\uFEFF')).map(([at, c]) => valid.slice(0, at) + c + valid.slice(at)) },
  );
}

let counter = 0;
function write(text: string): string {
  const file = join(dir, `case-${counter++ % 64}.json`);
  writeFileSync(file, text);
  return file;
}

/** Runs `load` and checks: a value, or a ConfigError naming the file and where. */
function expectLoadedOrConfigError<T>(file: string, load: (file: string) => T, topKeys: readonly string[]): T | undefined {
  let value: T;
  try {
    value = load(file);
  } catch (error) {
    expect(error, `a ${(error as Error)?.constructor?.name} escaped: ${(error as Error)?.message}`).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const line of message.split('\n')) {
      expect(line.startsWith(`${file}:`), line).toBe(true);
      const rest = line.slice(file.length);
      const jsonSyntax = /^:\d+:\d+: invalid JSON: \S/.test(rest);
      const atPath = new RegExp(`^: (\\(root\\)|(${topKeys.map((k) => k.replace(/\$/g, '\\$')).join('|')})(\\[\\d+\\]|\\.|:))`).test(rest);
      expect(jsonSyntax || atPath, `"${line}" names neither a line:column nor a JSON path`).toBe(true);
    }
    return undefined;
  }
  return value;
}

describe('config loaders: file text → value or ConfigError naming file and JSON path', () => {
  it('operator config (hookbox.config.json)', () => {
    fc.assert(
      fc.property(texts(VALID_CONFIG as unknown as Json), (text) => {
        const file = write(text);
        const config = expectLoadedOrConfigError(file, loadOperatorConfig, ['hooks', 'defaults', '$schema']);
        if (config === undefined) return;
        // What loaded is what strict JSON says the file holds, and it is resolved.
        const parsed = OperatorConfigSchema.safeParse(JSON.parse(text));
        expect(parsed.success, 'the loader accepted a file the schema rejects as JSON').toBe(true);
        expect(config.file).toBe(file);
        expect(config.hooks.map((h) => [h.name, h.at])).toEqual(parsed.data!.hooks.map((h, i) => [h.name, `hooks[${i}]`]));
        expect(new Set(config.hooks.map((h) => h.name)).size).toBe(config.hooks.length);
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);

  it('hook manifest (hook.json)', () => {
    const manifestKeys = [...Object.keys(VALID_MANIFEST)];
    fc.assert(
      fc.property(texts(VALID_MANIFEST as unknown as Json), (text) => {
        const file = write(text);
        const manifest = expectLoadedOrConfigError(file, loadManifest, manifestKeys);
        if (manifest === undefined) return;
        const parsed = HookManifestSchema.safeParse(JSON.parse(text));
        expect(parsed.success, 'the loader accepted a file the schema rejects as JSON').toBe(true);
        expect(manifest).toEqual(parsed.data);
      }),
      fuzzParams(SMALL),
    );
  }, TIMEOUT);
});
