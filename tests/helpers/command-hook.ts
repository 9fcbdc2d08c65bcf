import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const HOOKBOX = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));
/** The Node command client, run as `setup` writes it with `--client node`. */
export const NODE_CLIENT = fileURLToPath(new URL('../../host/cli/hookbox-hook.cjs', import.meta.url));
/** The sh command client, run as `setup` writes it by default. */
export const SH_CLIENT = fileURLToPath(new URL('../../host/cli/hookbox-hook.sh', import.meta.url));
/** The native command client, where `npm run build` found a C compiler (scripts/build-native.mjs). */
export const NATIVE_CLIENT = fileURLToPath(new URL(`../../dist/native/${process.platform}-${process.arch}/hookbox-hook`, import.meta.url));
/** Why the native client is not among {@link HOOK_CLIENTS} (undefined: it is). */
export const NATIVE_MISSING = existsSync(NATIVE_CLIENT) ? undefined : `${NATIVE_CLIENT} is not built (npm run build found no C compiler)`;

/** What a child run with {@link runWithStdin} did. */
export interface StdinRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `program <args…>` with `stdin` (as an agent runs a command hook), collecting its exit code and output. */
export function runProgram(program: string, args: readonly string[], stdin: string | Buffer, env: NodeJS.ProcessEnv = process.env): Promise<StdinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A client that answered without reading all of stdin (it exits early) is not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/** Runs `node <args…>` with `stdin`, collecting its exit code and output. */
export function runWithStdin(args: readonly string[], stdin: string | Buffer, env: NodeJS.ProcessEnv = process.env): Promise<StdinRun> {
  return runProgram(process.execPath, args, stdin, env);
}

/** One command client an agent can be set up with, run as the agent runs it: `<client> <agent> <args…>` with the event on stdin. */
export interface HookClient {
  readonly name: 'node' | 'sh' | 'native';
  run(agent: string, args: readonly string[], stdin: string | Buffer, env?: NodeJS.ProcessEnv): Promise<StdinRun>;
}

/** The command clients (node, sh, and native where it is built): specs of the command transport run against each. */
export const HOOK_CLIENTS: readonly HookClient[] = [
  { name: 'node', run: (agent, args, stdin, env) => runWithStdin([NODE_CLIENT, agent, ...args], stdin, env) },
  { name: 'sh', run: (agent, args, stdin, env) => runProgram('sh', [SH_CLIENT, agent, ...args], stdin, env) },
  ...(NATIVE_MISSING === undefined ? [{ name: 'native' as const, run: (agent: string, args: readonly string[], stdin: string | Buffer, env?: NodeJS.ProcessEnv) => runProgram(NATIVE_CLIENT, [agent, ...args], stdin, env) }] : []),
];

/**
 * Runs `hookbox hook claude-code <args>` (the command hook Claude Code runs
 * per event) with `stdin`, and collects its exit code and output.
 */
export function runCommandHook(args: readonly string[], stdin: string): Promise<StdinRun> {
  return runWithStdin([HOOKBOX, 'hook', 'claude-code', ...args], stdin);
}
