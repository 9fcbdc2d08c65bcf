import * as z from 'zod';
import { CommandRuleSchema } from './command-rules.ts';
import type { CatalogPolicy } from './policy.ts';

/** One tool rule: the tool as hooks see it (`read_file`, `WebFetch`, `mcp__github__*`). */
const ToolRuleSchema = z.strictObject({
  /** A tool name; `*` stands for any characters (`mcp__github__*`). */
  tool: z.string().trim().min(1, 'name a tool').max(200),
  action: z.enum(['allow', 'deny', 'ask']),
  /** Shown to the model with a deny; logged with an allow or an ask. */
  reason: z.string().min(1).max(500).optional(),
});

/** `permission-requests`' config (what `examples-hooks/policies/permission-requests/rules.ts` reads, defaults filled in). */
export const PermissionRequestsConfigSchema = z
  .strictObject({
    /** `allow`: the read-only tools (`read_file`, `list_dir`, Claude Code's `Glob`/`Grep`, Gemini's `grep_search`…) are allowed without asking; `ask`: left to the person. */
    readOnly: z.enum(['allow', 'ask']).default('allow'),
    /** In order: the first rule naming the tool answers for it (before `readOnly` and `commands`). */
    tools: z.array(ToolRuleSchema).default([]),
    /**
     * In order, for each program a shell command runs: the first rule whose
     * words match decides it (command-rules' patterns). A denied program
     * denies the command; it is allowed only when every program is allowed.
     */
    commands: z.array(CommandRuleSchema).default([]),
  })
  .refine((config) => config.readOnly === 'allow' || config.tools.length > 0 || config.commands.length > 0, 'it answers nothing: set readOnly to allow, or list tools or commands rules');

export const PERMISSION_REQUESTS: CatalogPolicy = {
  name: 'permission-requests',
  summary: "answers the agent's own permission dialog by the operator's rules — read-only tools, named tools, shell commands by every program they run — and leaves the rest to the person",
  seams: ['tools/permission-request'],
  rules: ['read-only', 'tool', 'command', 'redirect', 'unreadable', 'config-error'],
  configSchema: PermissionRequestsConfigSchema,
  example: {
    readOnly: 'allow',
    tools: [
      { tool: 'WebFetch', action: 'deny', reason: 'no web access from this project' },
      { tool: 'mcp__github__*', action: 'ask' },
    ],
    commands: [
      { command: 'npm test', action: 'allow' },
      { command: 'npm run lint', action: 'allow' },
      { command: 'git status', action: 'allow' },
      { command: 'git push **', action: 'deny', reason: 'pushes go through CI' },
    ],
  },
};
