import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

const ActionSchema = z.enum(['deny', 'ask', 'allow']);
const GlobSchema = z.string().trim().min(1, 'an empty glob matches nothing');

/** CI configuration of the common CI services (globs as protected-paths reads them). */
const CI_PATHS = ['.github/workflows/**', '.github/actions/**', '.gitlab-ci.yml', '.gitlab-ci/**', '.circleci/**', 'azure-pipelines.yml', '.azure-pipelines/**', 'Jenkinsfile', '.buildkite/**', 'bitbucket-pipelines.yml', '.travis.yml', '.drone.yml', '.woodpecker/**', '.woodpecker.yml'];
/** The package managers' lockfiles, at any depth. */
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'deno.lock', 'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'pdm.lock', 'Gemfile.lock', 'composer.lock', 'go.sum', 'flake.lock', 'mix.lock', 'pubspec.lock', 'Podfile.lock', 'packages.lock.json'];

/** `ci-lockfile-guard`'s config (what `examples-hooks/policies/ci-lockfile-guard/rules.ts` reads, defaults filled in). */
export const CiLockfileGuardConfigSchema = z.strictObject({
  /** What an edit of CI configuration gets. */
  ci: ActionSchema.default('ask'),
  /** What an edit of a lockfile gets. */
  lockfiles: ActionSchema.default('deny'),
  /** Globs of CI configuration (protected-paths' globs); the default lists the common CI services'. */
  ciPaths: z.array(GlobSchema).default(CI_PATHS),
  /** Globs of lockfiles; the default lists the common package managers' (bare names: at any depth). */
  lockfilePaths: z.array(GlobSchema).default(LOCKFILES),
});

export const CI_LOCKFILE_GUARD: CatalogPolicy = {
  name: 'ci-lockfile-guard',
  summary: 'denies or asks for writing, editing, deleting or moving CI configuration (.github/workflows, .gitlab-ci.yml, …) and lockfiles through any tool',
  seams: ['tools/pre-execute'],
  rules: ['ci', 'lockfile', 'unreadable', 'config-error'],
  configSchema: CiLockfileGuardConfigSchema,
  example: { ci: 'ask', lockfiles: 'deny' },
};
