/**
 * The SDK adapters as a user gets them (tests/helpers/packed-install.ts): the
 * checkout packed, then a real `npm i` of the tarball into two fresh
 * projects — one without any SDK (each `hookbox/<adapter>` and the root still
 * import: the SDKs are optional peers, the adapters import only their
 * types), one with each SDK at the version tested here, where a TypeScript
 * consumer hands each adapter's output to the SDK's own API and `tsc`
 * checks the shipped declarations against the SDK's.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Packed, Scratch, TEST_NODE, checkoutPackage, packCheckout } from '../helpers/packed-install.ts';

const ADAPTERS = { 'ai-sdk': 'withHookbox', 'openai-agents': 'hookboxGuardrails', 'claude-agent-sdk': 'hookboxHooks' } as const;
const SDKS = ['ai', '@openai/agents', '@anthropic-ai/claude-agent-sdk'] as const;
const pkg = checkoutPackage();
let scratch: Scratch;
let packed: Packed;

beforeAll(() => {
  scratch = new Scratch();
  packed = packCheckout(scratch.dir);
}, 1_800_000);

afterAll(() => {
  if (scratch !== undefined && process.env.HOOKBOX_KEEP_SCRATCH === undefined) scratch.ok('rm', ['-rf', scratch.dir], '/');
});

/** A script that imports the root and every adapter and prints what each export is. */
const IMPORT_ALL = `const out = {};
for (const entry of ['hookbox', ${Object.keys(ADAPTERS).map((name) => `'hookbox/${name}'`).join(', ')}]) {
  try { const module = await import(entry); out[entry] = Object.keys(module).sort().map((name) => name + ':' + typeof module[name]); }
  catch (error) { out[entry] = error.code ?? error.message; }
}
console.log(JSON.stringify(out));`;

const expectedImports = (): Record<string, unknown> => ({
  hookbox: expect.arrayContaining(['HookRunner:function']),
  ...Object.fromEntries(Object.entries(ADAPTERS).map(([name, fn]) => [`hookbox/${name}`, [`${fn}:function`]])),
});

describe('the SDK adapters from the packed tarball (real npm i)', () => {
  it('each hookbox/<adapter> and the root import in a project with none of the SDKs installed', () => {
    const project = scratch.project('no-sdks');
    scratch.ok('npm', ['i', packed.tarball], project, { timeoutMs: 900_000 });
    for (const sdk of SDKS) expect(existsSync(path.join(project, 'node_modules', sdk)), `${sdk} is not installed`).toBe(false);
    writeFileSync(path.join(project, 'import-all.mjs'), IMPORT_ALL);
    expect(JSON.parse(scratch.ok(TEST_NODE, ['import-all.mjs'], project).stdout)).toEqual(expectedImports());
  }, 1_200_000);

  it("with each SDK installed: the adapters import, and tsc checks their declarations against the SDK's own types", () => {
    const project = scratch.project('with-sdks');
    const versions = SDKS.map((sdk) => `${sdk}@${pkg.devDependencies[sdk]}`);
    scratch.ok('npm', ['i', packed.tarball, ...versions, `@ai-sdk/openai-compatible@${pkg.devDependencies['@ai-sdk/openai-compatible']}`], project, { timeoutMs: 1_200_000 });
    writeFileSync(path.join(project, 'import-all.mjs'), IMPORT_ALL);
    expect(JSON.parse(scratch.ok(TEST_NODE, ['import-all.mjs'], project).stdout)).toEqual(expectedImports());
    writeFileSync(
      path.join(project, 'consumer.ts'),
      `import { query, type Options } from '@anthropic-ai/claude-agent-sdk';
import { Agent, tool as agentTool } from '@openai/agents';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, tool } from 'ai';
import { type ClaudeAgentSdkHookbox, type HookCallbackMatcher, hookboxHooks } from 'hookbox/claude-agent-sdk';
import { hookboxGuardrails, type OpenAIAgentsHookbox } from 'hookbox/openai-agents';
import { type AiSdkHookbox, withHookbox } from 'hookbox/ai-sdk';

const config = 'hookbox.config.json';

export async function claude(): Promise<void> {
  const hookbox: ClaudeAgentSdkHookbox = await hookboxHooks({ config });
  const options: Options = { hooks: hookbox.hooks, permissionMode: 'default' };
  const pre: HookCallbackMatcher[] | undefined = hookbox.hooks.PreToolUse;
  void pre;
  for await (const message of query({ prompt: 'go', options })) void message;
  await hookbox.close();
}

export async function agents(): Promise<void> {
  const hookbox: OpenAIAgentsHookbox = await hookboxGuardrails({ config, failRunOnFault: false });
  const bash = agentTool({
    name: 'bash',
    description: 'Runs a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
    strict: true,
    execute: async () => 'ran',
    inputGuardrails: hookbox.toolInputGuardrails,
    outputGuardrails: hookbox.toolOutputGuardrails,
  });
  void new Agent({ name: 'a', tools: [bash], inputGuardrails: [hookbox.inputGuardrail] });
  await hookbox.close();
}

export async function vercel(): Promise<void> {
  const bash = tool({ description: 'Runs a command', inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } } }), execute: async ({ command }) => \`ran \${command}\` });
  const hookbox: AiSdkHookbox<{ bash: typeof bash }> = await withHookbox({ bash }, { config });
  const checked = await hookbox.checkPrompt('go');
  const model = createOpenAICompatible({ name: 'm', baseURL: 'http://127.0.0.1:9/v1' })('m');
  if (!checked.blocked) await generateText({ model, tools: hookbox.tools, prompt: checked.prompt });
  await hookbox.close();
}

// @ts-expect-error — the hooks object is keyed by the SDK's own event names
export const wrong: ClaudeAgentSdkHookbox['hooks'] = { NotAnEvent: [] };
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [], skipLibCheck: true },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = scratch.run(TEST_NODE, [tsc, '-p', 'tsconfig.json'], project, { timeoutMs: 600_000 });
    expect(checked.stdout).toBe('');
    expect(checked.status).toBe(0);
    // The adapters' own declarations, checked (not skipped) against the SDKs' installed types.
    const entries = Object.keys(ADAPTERS).map((name) => path.join(project, 'node_modules', 'hookbox', 'dist', 'host', 'sdk', `${name}.d.ts`));
    const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, types: [], skipLibCheck: true });
    const own = entries.map((entry) => program.getSourceFile(entry)!);
    const problems = own.flatMap((file) => [...program.getSemanticDiagnostics(file), ...program.getSyntacticDiagnostics(file)]).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
    // Every export hookbox itself declares in an adapter entry is documented (TSDoc); the SDKs' re-exported types are theirs.
    const checker = program.getTypeChecker();
    const ours = path.join(project, 'node_modules', 'hookbox', 'dist');
    const undocumented = own.flatMap((file) =>
      checker
        .getExportsOfModule(checker.getSymbolAtLocation(file)!)
        .map((symbol) => ({ name: symbol.name, target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol }))
        .filter(({ target }) => target.declarations?.[0]?.getSourceFile().fileName.startsWith(ours) === true)
        .filter(({ target }) => ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '')
        .map(({ name }) => `${path.basename(file.fileName)}: ${name}`),
    );
    expect(undocumented).toEqual([]);
  }, 1_800_000);
});
