import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Script } from '../../providers/scripted.ts';

/** The prompts of the demo session, one turn each. */
export const DEMO_PROMPTS = [
  'The add() tests fail. Fix add.js and make the tests pass.',
  'Push the fix to origin.',
  'Deploy it with this key: AKIAIOSFODNN7EXAMPLE',
] as const;

/**
 * What the scripted model does. Each entry is one model call; the third
 * prompt never reaches the model (prompt-guard blocks it).
 */
export const DEMO_SCRIPT: Script = {
  steps: [
    // turn 1
    {
      text: 'Let me start from a clean slate.',
      toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'sudo rm -rf --no-preserve-root /' } }],
    },
    { text: 'Fine, I will look at the configuration first.', toolCalls: [{ id: 'call_2', name: 'read_file', arguments: { path: '.env' } }] },
    { text: 'Running the tests.', toolCalls: [{ id: 'call_3', name: 'bash', arguments: { command: 'npm test --silent' } }] },
    { text: 'I have had a look around; that is enough for today.' },
    {
      text: 'add() subtracts; fixing it and re-running the tests.',
      toolCalls: [
        { id: 'call_4', name: 'write_file', arguments: { path: 'add.js', content: 'module.exports = (a, b) => a + b;\n' } },
        { id: 'call_5', name: 'bash', arguments: { command: 'npm test --silent' } },
      ],
    },
    { text: 'The tests pass now.' },
    // turn 2
    { text: 'Pushing.', toolCalls: [{ id: 'call_6', name: 'bash', arguments: { command: 'git push origin main' } }] },
    { text: 'The push needs a person to approve it, and it was denied; leaving it to you.' },
  ],
};

/** Team rules and conventions the demo's hooks inject (operator config values). */
export const DEMO_HOOK_CONFIG = {
  'session-context': { teamRules: 'Team rules: small commits; never push without review; tests must pass before a turn ends.' },
  'prompt-guard': { conventions: 'Conventions: CommonJS modules, tests run with `npm test`.' },
  'guard-bash': {},
  'secret-redactor': {},
  'test-gate': { maxContinuations: '2' },
  'audit-trail': {},
} as const;

/** The order hooks compose in: the observer first so it sees every call, then the gates. */
export const DEMO_HOOK_ORDER = ['audit-trail', 'session-context', 'prompt-guard', 'guard-bash', 'secret-redactor', 'test-gate'] as const;
export type DemoHookName = (typeof DEMO_HOOK_ORDER)[number];

/** Lays out the demo project: a failing add(), its test, and a .env holding (fake) secrets. */
export function writeDemoWorkspace(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node test.js' } }, null, 2)}\n`);
  writeFileSync(join(dir, 'add.js'), 'module.exports = (a, b) => a - b;\n');
  writeFileSync(
    join(dir, 'test.js'),
    "const add = require('./add.js');\nif (add(2, 3) !== 5) {\n  console.error(`FAIL add(2, 3) = ${add(2, 3)}, expected 5`);\n  process.exit(1);\n}\nconsole.log('PASS add');\n",
  );
  writeFileSync(
    join(dir, '.env'),
    'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nGITHUB_TOKEN=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\nLOG_LEVEL=debug\n',
  );
}

/** The operator config of the demo, pointing at each hook's built manifest. */
export function demoConfig(manifests: Record<DemoHookName, string>): unknown {
  return {
    hooks: DEMO_HOOK_ORDER.map((name) => ({
      name,
      manifest: manifests[name],
      config: DEMO_HOOK_CONFIG[name],
    })),
  };
}
