// What a hook requests in defineHook, read from its source for hook.json (pdk/compiler/hook-requests.ts):
// literals only, through a named const or `as const`, and nothing else of the call.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHookRequests } from '../../pdk/compiler/hook-requests.ts';
import { BuildError } from '../../host/errors.ts';
import { tempDir } from './support.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

function entry(name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

describe('readHookRequests', () => {
  it('reads the requests of `export default defineHook({...})`, and ignores the handlers', () => {
    const file = entry('direct.ts', `export default defineHook({
  capabilities: { allowedHosts: ['a.example.com', "*.b.example.com"], clock: true, allowedPaths: { './data': { path: '/data', write: false } } },
  'config': { key: \`a description\` },
  tools: ['bash'] as const,
  limits: { timeoutMs: 2000, memoryMb: -1 },
  preTool: () => undefined,
});`);
    expect(readHookRequests(file)).toEqual({
      capabilities: { allowedHosts: ['a.example.com', '*.b.example.com'], clock: true, allowedPaths: { './data': { path: '/data', write: false } } },
      config: { key: 'a description' },
      tools: ['bash'],
      limits: { timeoutMs: 2000, memoryMb: -1 },
    });
  });

  it('follows `const hook = defineHook(...); export default hook`', () => {
    const file = entry('named.ts', `const hook = defineHook({ tools: ['read_file'], preTool: () => undefined }) satisfies unknown;\nexport default hook;\n`);
    expect(readHookRequests(file)).toEqual({ tools: ['read_file'] });
  });

  it('has none for a module of plain exported functions, or a defineHook that is not the default export', () => {
    expect(readHookRequests(entry('plain.js', 'export function pre_tool() { return 0; }\n'))).toEqual({});
    expect(readHookRequests(entry('other.ts', "const other = defineHook({ tools: ['x'] });\nexport default defineHook({ preTool: () => undefined });\n"))).toEqual({});
  });

  it('refuses a computed request, naming file:line:col and the key', () => {
    const file = entry('computed.ts', "const hosts = ['x'];\nexport default defineHook({\n  capabilities: { allowedHosts: hosts },\n});\n");
    expect(() => readHookRequests(file)).toThrow(BuildError);
    expect(() => readHookRequests(file)).toThrow(`${file}:3:33: defineHook's capabilities.allowedHosts must be written as a literal`);
    const spread = entry('spread.ts', "const base = {};\nexport default defineHook({ config: { ...base } });\n");
    expect(() => readHookRequests(spread)).toThrow(`${spread}:2:39: defineHook's config must be written as a literal`);
  });
});
