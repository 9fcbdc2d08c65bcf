import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

const ActionSchema = z.enum(['deny', 'ask', 'allow']);

/** `git-guards`' config (what `examples-hooks/policies/git-guards/rules.ts` reads, defaults filled in). */
export const GitGuardsConfigSchema = z.strictObject({
  /** Branches no push may target and no `branch -D/-f`, `checkout -B` may force. */
  protectedBranches: z.array(z.string().trim().min(1)).default(['main', 'master']),
  /** `git push --force`, `-f`, `--force-with-lease`, a `+refspec`. */
  forcePush: ActionSchema.default('deny'),
  /** `--no-verify` on any git command, `git commit -n`. */
  noVerify: ActionSchema.default('deny'),
  /** An explicit push to a protected branch (`git push origin main`, `HEAD:main`). */
  protectedBranch: ActionSchema.default('deny'),
  /** `rebase`, `commit --amend`, `reset --hard`, `filter-branch`/`filter-repo`, `reflog expire`, `push --mirror/--all/--delete`. */
  historyRewrite: ActionSchema.default('ask'),
});

export const GIT_GUARDS: CatalogPolicy = {
  name: 'git-guards',
  summary: 'force pushes, --no-verify, pushes to protected branches and history rewrites in any git a shell command runs',
  seams: ['tools/pre-execute'],
  rules: ['force-push', 'no-verify', 'protected-branch', 'history-rewrite', 'unreadable', 'config-error'],
  configSchema: GitGuardsConfigSchema,
  example: { protectedBranches: ['main', 'release'], forcePush: 'deny', noVerify: 'deny', protectedBranch: 'deny', historyRewrite: 'ask' },
};
