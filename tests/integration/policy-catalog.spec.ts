import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOG } from '../../host/catalog/index.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

// The catalog through the real bin: `policies`, `test` on the policies' decision tables
// (real sandboxed hooks under the real layered config), and the config's errors.
const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
const GUIDE = fileURLToPath(new URL('../../docs/guides/policies.md', import.meta.url));
const PROTECTED_PATHS_TABLE = fileURLToPath(new URL('../../examples-hooks/policies/protected-paths/test/', import.meta.url));

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = makeWorkspace('hookbox-catalog-');
});
afterEach(() => workspace.dispose());

function hookbox(args: string[], cwd = workspace.dir) {
  // No user layer from the machine's home: the config under test is the only layer.
  const env = { ...process.env, NO_COLOR: '1', XDG_CONFIG_HOME: join(workspace.dir, 'xdg'), HOOKBOX_ORG_CONFIG: undefined };
  return spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 120_000 });
}

function writeConfig(hooks: unknown[]): string {
  const file = join(workspace.dir, 'hookbox.config.json');
  writeFileSync(file, JSON.stringify({ hooks }));
  return file;
}

describe('hookbox policies', () => {
  it('lists every catalog policy one a line, its name first', () => {
    const result = hookbox(['policies']);
    expect(result.status).toBe(0);
    const names = result.stdout.trim().split('\n').map((line) => line.split(/\s+/)[0]);
    expect(names).toEqual(CATALOG.map((policy) => policy.name));
  });

  it('prints a policy\'s config schema and an example entry a config accepts', () => {
    const result = hookbox(['policies', 'protected-paths']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"paths"');
    const example = JSON.parse(result.stdout.slice(result.stdout.lastIndexOf('{\n  "name"'))) as { config: unknown };
    for (const policy of CATALOG) expect(policy.configSchema.safeParse(policy.example).success, policy.name).toBe(true);
    expect(example.config).toEqual(CATALOG[0]?.example);
  });

  it('shows a policy that reads a signal with its grant, and says to declare the signal', () => {
    const result = hookbox(['policies', 'post-edit-check']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('it reads the signal "lint": declare it in "signals" of hookbox.config.json');
    const example = JSON.parse(result.stdout.slice(result.stdout.lastIndexOf('{\n  "name"'))) as { grant: unknown };
    expect(example.grant).toEqual({ signals: ['lint'] });
  });

  it('refuses an unknown policy name', () => {
    const result = hookbox(['policies', 'no-such']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('no built-in policy "no-such"');
  });
});

describe('hookbox test', () => {
  it.each(CATALOG.map((policy) => [policy.name]))("passes %s's decision table through the real hooks, every case printed, exit 0", (name) => {
    const result = hookbox(['test', fileURLToPath(new URL(`../../examples-hooks/policies/${name}/test/hookbox.test.json`, import.meta.url))]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const table = JSON.parse(readFileSync(fileURLToPath(new URL(`../../examples-hooks/policies/${name}/test/hookbox.test.json`, import.meta.url)), 'utf8')) as { cases: unknown[] };
    expect(result.stdout.split('\n').filter((line) => line.startsWith('pass  '))).toHaveLength(table.cases.length);
    expect(result.stdout).toContain(`${table.cases.length} passed, 0 failed`);
    // Every rule but config-error (a config the host let through cannot reach it) decided some case.
    const coverage = new RegExp(`\\(${name}\\): (\\d+)/(\\d+) rules — (.*)`).exec(result.stdout);
    expect(coverage?.[3]).toMatch(/config-error 0$/);
    expect(Number(coverage?.[1])).toBe(Number(coverage?.[2]) - 1);
  });

  it("prints protected-paths' rule coverage", () => {
    const result = hookbox(['test', join(PROTECTED_PATHS_TABLE, 'hookbox.test.json')]);
    expect(result.stdout).toMatch(/^pass {2}write_file \.env: deny — protected-paths: write: /m);
    expect(result.stdout).toMatch(/protected \(protected-paths\): 4\/5 rules — write \d+, delete \d+, move 1, unreadable 1, config-error 0/);
  });

  it('exits 1 on a failing case and says why', () => {
    cpSync(PROTECTED_PATHS_TABLE, workspace.dir, { recursive: true });
    const file = join(workspace.dir, 'hookbox.test.json');
    const table = JSON.parse(readFileSync(file, 'utf8')) as { cases: { name: string; expect: { action: string } }[] };
    (table.cases[0] as { expect: { action: string } }).expect = { action: 'allow' };
    writeFileSync(file, JSON.stringify(table));
    const result = hookbox(['test', 'hookbox.test.json']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`FAIL  ${table.cases[0]?.name}: deny`);
    expect(result.stdout).toContain('expected allow, got deny');
    expect(result.stdout).toMatch(/\n31 passed, 1 failed\n/);
  });

  it('a reason pattern that does not match fails the case', () => {
    writeConfig([{ name: 'paths', policy: 'protected-paths', config: { paths: ['.env'] } }]);
    const cases = [{ name: 'wrong rule', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'rm .env' } }, expect: { action: 'deny', reason: '^protected-paths: write:' } }];
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases }));
    const result = hookbox(['test']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('reason does not match /^protected-paths: write:/');
  });

  it('checks a rewritten field against its pattern (a redacted post-tool result)', () => {
    writeConfig([{ name: 'secrets', policy: 'secrets' }]);
    const payload = { toolName: 'bash', arguments: { command: 'cat .env' }, result: { content: 'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n', isError: false } };
    const cases = [
      { name: 'redacted', seam: 'tools/post-execute', payload, expect: { action: 'accept', fields: { content: '^GITHUB_TOKEN=\\[REDACTED:github-token\\]' } } },
      { name: 'left as it was', seam: 'tools/post-execute', payload, expect: { action: 'accept', fields: { content: 'ghp_' } } },
    ];
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases }));
    const result = hookbox(['test']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^pass {2}redacted: accept$/m);
    expect(result.stdout).toContain('FAIL  left as it was: accept\n      content does not match /ghp_/');
  });

  it('names the file and JSON path of a bad policy config', () => {
    writeConfig([{ name: 'paths', policy: 'protected-paths', config: { paths: ['.env', 3] } }]);
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: {} }, expect: { action: 'allow' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`${join(workspace.dir, 'hookbox.config.json')}: hooks[0].config.paths[1]:`);
  });

  it("names the JSON path of the newer policies' config mistakes, a missing budget or list too", () => {
    writeConfig([
      { name: 'e', policy: 'network-egress', config: { allow: ['https://x.com'] } },
      { name: 't', policy: 'turn-budget', config: {} },
      { name: 'f', policy: 'file-limits', config: { maxBytes: -1 } },
      { name: 'm', policy: 'mcp-allowlist', config: {} },
      { name: 'c', policy: 'context-injection', config: { prompt: 'x', subagentTypes: ['Explore'] } },
      { name: 'p', policy: 'permission-requests', config: { readOnly: 'ask' } },
      { name: 'q', policy: 'permission-requests', config: { tools: [{ tool: 'Bash', action: 'yes' }], commands: [{ command: 'git ** push', action: 'allow' }] } },
    ]);
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: {} }, expect: { action: 'allow' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('hooks[0].config.allow[0]: a host (example.com), *.example.com for its subdomains, or *');
    expect(result.stderr).toContain('hooks[1].config: set toolCallsPerTurn, continuationsPerSession or both');
    expect(result.stderr).toContain('hooks[2].config.maxBytes:');
    expect(result.stderr).toContain('hooks[3].config: list servers or tools in allow, deny or both');
    expect(result.stderr).toContain('hooks[4].config.subagentTypes: subagentTypes chooses who gets subagentStart: set subagentStart too');
    expect(result.stderr).toContain('hooks[5].config: it answers nothing: set readOnly to allow, or list tools or commands rules');
    expect(result.stderr).toContain('hooks[6].config.tools[0].action:');
    expect(result.stderr).toContain('hooks[6].config.commands[0].command: "**" may only be the last word');
  });

  it('names an unknown policy, and refuses JSON config values for a hook that is not a policy', () => {
    writeConfig([{ name: 'p', policy: 'protected-pathz', config: {} }, { name: 'w', wasm: 'x.wasm', config: { n: 3 } }]);
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: {} }, expect: { action: 'allow' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('hooks[0].policy: no built-in policy "protected-pathz"');
    expect(result.stderr).toContain('hooks[1].config.n: expected a string (only a catalog "policy" takes JSON config values)');
  });

  it('runs one module for every policy: the rules are the ones hookbox names, not a key the project sets', () => {
    const manifests = CATALOG.map((policy) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../dist/catalog/${policy.name}/hook.json`, import.meta.url)), 'utf8')) as { wasm: string; seams: string[] });
    expect(new Set(manifests.map((m) => m.wasm))).toEqual(new Set(['../policies.wasm']));
    expect(manifests.map((m) => m.seams)).toEqual(CATALOG.map((policy) => policy.seams));
    // The policy's config is its schema's: a project cannot slip another policy's name in.
    writeConfig([{ name: 'p', policy: 'protected-paths', config: { paths: ['.env'], policyName: 'secrets' } }]);
    const cases = [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: { command: 'rm .env' } }, expect: { action: 'deny' } }];
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases }));
    const spoofed = hookbox(['test']);
    expect(spoofed.status).not.toBe(0);
    expect(spoofed.stderr).toContain('hooks[0].config');
    expect(spoofed.stderr).toContain('policyName');
    // The module wired by hand, without the name hookbox sets, runs no policy's rules: a fault that says why.
    const manifest = fileURLToPath(new URL('../../dist/catalog/protected-paths/hook.json', import.meta.url));
    writeConfig([{ name: 'p', manifest, failPolicy: 'closed', config: { policy: JSON.stringify({ paths: ['.env'] }) } }]);
    const unnamed = hookbox(['test']);
    expect(unnamed.status).toBe(0);
    expect(unnamed.stdout).toContain('no "policyName" config key in the catalog module');
  });

  it('names the case of a payload that is not the seam\'s', () => {
    writeConfig([{ name: 'paths', policy: 'protected-paths', config: { paths: ['.env'] } }]);
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash' }, expect: { action: 'allow' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('hookbox.test.json: cases[0].payload.arguments:');
  });
});

describe('docs/guides/policies.md', () => {
  it("runs the guide's example as written in a fresh project, printing the guide's output", () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const files = [...guide.matchAll(/<!-- file: ([^ ]+) -->\n```json\n([\s\S]*?)\n```/g)];
    expect(files.map((match) => match[1])).toEqual(['hookbox.config.json', 'hookbox.test.json']);
    for (const [, name, text] of files) writeFileSync(join(workspace.dir, name as string), text as string);
    const output = /<!-- output -->\n```text\n([\s\S]*?)\n```/.exec(guide)?.[1];
    const result = hookbox(['test']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${output}\n`);
  });

  it("runs the guide's worked example (three policies, a signal, Claude Code and Codex events) in a fresh project, printing the guide's output", () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const files = [...guide.matchAll(/<!-- worked-example file: ([^ ]+) -->\n```\w+\n([\s\S]*?)\n```/g)];
    expect(files.map((match) => match[1])).toEqual(['hookbox.config.json', 'lint.mjs', 'src/app.ts', 'hookbox.test.json']);
    mkdirSync(join(workspace.dir, 'src'));
    for (const [, name, text] of files) writeFileSync(join(workspace.dir, name as string), `${text as string}\n`);
    const output = /<!-- worked-example output -->\n```text\n([\s\S]*?)\n```/.exec(guide)?.[1];
    const result = hookbox(['test']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${output}\n`);
    // The signal is what decided the last case: with the var gone, the check passes and adds nothing.
    writeFileSync(join(workspace.dir, 'src', 'app.ts'), 'let total = 0;\n');
    const clean = hookbox(['test']);
    expect(clean.status).toBe(1);
    expect(clean.stdout).toContain('FAIL  after an edit, the linter\'s failure goes to the model: accept\n      additionalContext is not set');
  });

  it("a case in an agent's own format that is not one of its events names the case and what is wrong", () => {
    writeConfig([{ name: 'protect', policy: 'protected-paths', config: { paths: ['.env'] } }]);
    const event = { session_id: 's1', transcript_path: '/dev/null', cwd: '/work/app', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 't' };
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', agent: 'claude-code', event, expect: { action: 'deny' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('hookbox.test.json: cases[0].event: ');
    expect(result.stderr).toContain('tool_input');
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', agent: 'claude-code', seam: 'tools/pre-execute', event, expect: { action: 'deny' } }] }));
    const both = hookbox(['test']);
    expect(both.status).not.toBe(0);
    expect(both.stderr).toContain('cases[0]: expected either "seam" and "payload", or "agent" and "event"');
  });

  it("shows the error a bad config really gets", () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const shown = /\n(hookbox\.config\.json: hooks\[0\]\.config\.paths\[1\]: [^\n]+)/.exec(guide)?.[1];
    writeConfig([{ name: 'protect', policy: 'protected-paths', config: { paths: ['.env', 3] } }]);
    writeFileSync(join(workspace.dir, 'hookbox.test.json'), JSON.stringify({ config: 'hookbox.config.json', cases: [{ name: 'x', seam: 'tools/pre-execute', payload: { toolName: 'bash', arguments: {} }, expect: { action: 'allow' } }] }));
    const result = hookbox(['test']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`${workspace.dir}/${shown}`);
  });
});
