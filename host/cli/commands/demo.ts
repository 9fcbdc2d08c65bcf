import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { EXAMPLE_HOOKS, buildExamples } from '../../../examples-hooks/build.ts';
import type { SessionEvent } from '../../log/index.ts';
import { IS_CHECKOUT } from '../../package.ts';
import { ScriptedProvider } from '../../providers/scripted.ts';
import { DEMO_PROMPTS, DEMO_SCRIPT, type DemoHookName, demoConfig, writeDemoWorkspace } from '../demo/scenario.ts';
import { runPrompts } from '../session-runner.ts';
import { renderEvent } from '../transcript.ts';

export interface DemoResult {
  readonly workspace: string;
  readonly logPath: string;
  readonly configPath: string;
}

/**
 * The demo session: builds the six example hooks from source, lays out a
 * small project in a fresh temporary workspace, and runs a scripted session
 * through the real loop with every hook sandboxed in wasm.
 */
export async function runDemo(write: (text: string) => void, workspaceDir?: string): Promise<DemoResult> {
  const progress = (message: string): void => {
    process.stderr.write(pc.dim(`${message}\n`));
  };
  const built = await buildExamples(progress);
  const workspace = workspaceDir ?? mkdtempSync(join(tmpdir(), 'hookbox-demo-'));
  writeDemoWorkspace(workspace);
  const manifests = Object.fromEntries(EXAMPLE_HOOKS.map((name) => [name, built[name].manifestPath])) as Record<DemoHookName, string>;
  const configPath = join(workspace, 'hookbox.config.json');
  writeFileSync(configPath, `${JSON.stringify(demoConfig(manifests), null, 2)}\n`);
  const logPath = join(workspace, '.hookbox', 'session.jsonl');

  write(`${pc.bold('hookbox demo')} ${pc.dim(`— six wasm hooks (${EXAMPLE_HOOKS.join(', ')}), a scripted model, a real loop`)}\n`);
  write(pc.dim(`workspace ${workspace}\nconfig    ${configPath}\n`));
  write(pc.dim('no permission prompter is attached, so an `ask` degrades to deny\n'));
  await runPrompts({
    cwd: workspace,
    logPath,
    provider: new ScriptedProvider(DEMO_SCRIPT),
    configPath,
    prompts: DEMO_PROMPTS,
    source: 'cli',
    maxContinuations: 2,
    onEvent: (event: SessionEvent) => {
      const line = renderEvent(event);
      if (line !== '') write(`${line}\n`);
    },
  });
  write(`\n${pc.bold('session log')} ${logPath}\n`);
  // As the person runs hookbox: the checkout's bin, or the installed package through npx.
  const bin = IS_CHECKOUT ? './host/cli/hookbox.mjs' : 'npx hookbox';
  write(pc.dim(`try: ${bin} replay ${logPath} --config <another config>\n`));
  return { workspace, logPath, configPath };
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run the demo session: six example wasm hooks on a scripted session in a temporary workspace')
    .option('--workspace <dir>', 'use this directory instead of a fresh temporary one')
    .action(async (flags: { workspace?: string }) => {
      await runDemo((text) => process.stdout.write(text), flags.workspace);
    });
}
