import { z } from 'zod';
import type { Tool } from '../../host/loop/index.ts';

/** A deterministic tool: returns its text. Counts its runs. */
export function echoTool(): Tool<{ text: string }> & { runs: number } {
  const tool = {
    name: 'echo',
    description: 'Returns its text.',
    arguments: z.strictObject({ text: z.string() }),
    runs: 0,
    async run(args: { text: string }) {
      tool.runs += 1;
      return { content: args.text, isError: false };
    },
  };
  return tool;
}

/** A tool whose body throws. */
export const boomTool: Tool<Record<string, never>> = {
  name: 'boom',
  description: 'Always throws.',
  arguments: z.strictObject({}),
  async run() {
    throw new Error('kaboom');
  },
};
