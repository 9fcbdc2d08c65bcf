import { createInterface } from 'node:readline';
import pc from 'picocolors';
import type { PermissionPrompter, PermissionRequest } from '../loop/index.ts';
import { printable } from '../text/index.ts';

/** How much of one hook's reason, and of the call's arguments, the prompt shows. */
const REASON_MAX = 300;
const ARGUMENTS_MAX = 500;

/**
 * The question as the person sees it. Hook text comes first, each reason on
 * one line (sanitised: no newline, escape or control character can draw
 * anything), attributed to the hook the host knows asked. Then, from the
 * host's own data and after every hook text, a fixed frame: the tool, its
 * arguments and the question. Nothing a hook says can move, hide or imitate
 * the frame, because nothing a hook says can leave its own line.
 */
export function renderPermissionPrompt(request: PermissionRequest): string {
  const { toolCall, asks } = request;
  const count = asks.length === 1 ? 'a hook asks' : `${asks.length} hooks ask`;
  const lines = [`${pc.yellow(pc.bold('  ? permission'))} ${count} before this tool call:`];
  for (const ask of asks) {
    const reason = ask.reason === undefined ? pc.dim('(no reason given)') : printable(ask.reason, { maxLength: REASON_MAX });
    lines.push(`    ${pc.dim('hook')} ${pc.bold(printable(ask.hook, { maxLength: 80 }))} ${pc.dim('asks:')} ${reason}`);
  }
  if (asks.length === 0) lines.push(`    ${pc.dim('(no hook named)')}`);
  lines.push(
    `  ${pc.cyan('┌─ hookbox asks you ─')}`,
    `  ${pc.cyan('│')} tool:      ${pc.bold(printable(toolCall.name, { maxLength: 80 }))}`,
    `  ${pc.cyan('│')} arguments: ${printable(JSON.stringify(toolCall.arguments), { maxLength: ARGUMENTS_MAX })}`,
    `  ${pc.cyan('└─')} allow this call? [y/N] `,
  );
  return lines.join('\n');
}

/**
 * Asks the person at the terminal about a pre-tool `ask`: shows every asking
 * hook's reason and then the host's frame with the tool call, reads y/n.
 * Anything but yes, end of input or cancellation (the loop's ask timeout) is
 * a deny.
 */
export class TerminalPrompter implements PermissionPrompter {
  readonly #input: NodeJS.ReadableStream;
  readonly #output: NodeJS.WritableStream;

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
    this.#input = input;
    this.#output = output;
  }

  ask(request: PermissionRequest, signal: AbortSignal): Promise<'allow' | 'deny'> {
    return new Promise((resolve) => {
      const rl = createInterface({ input: this.#input, output: this.#output, terminal: false });
      let settled = false;
      const finish = (answer: 'allow' | 'deny'): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
        rl.close();
      };
      const onAbort = (): void => {
        this.#output.write(pc.yellow('\n  no answer in time: denied\n'));
        finish('deny');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      rl.once('close', () => finish('deny'));
      rl.once('line', (line) => finish(/^\s*y(es)?\s*$/i.test(line) ? 'allow' : 'deny'));
      this.#output.write(renderPermissionPrompt(request));
    });
  }
}
