import { createInterface } from 'node:readline';
import pc from 'picocolors';
import type { PermissionPrompter, PermissionRequest } from '../loop/index.ts';

/**
 * Asks the person at the terminal about a pre-tool `ask`: shows the hook's
 * reason and the tool call, reads y/n. Anything but yes, end of input or
 * cancellation (the loop's ask timeout) is a deny.
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
      const call = request.toolCall;
      this.#output.write(
        `${pc.yellow(pc.bold('  ? permission'))} ${request.reason ?? 'a hook asks before this tool call'}\n` +
          `    ${pc.bold(call.name)} ${JSON.stringify(call.arguments)}\n` +
          `    allow? [y/N] `,
      );
    });
  }
}
