import * as z from 'zod';
import type { CatalogPolicy } from './policy.ts';

/** The registries every package manager uses by default. */
const DEFAULT_REGISTRIES = ['registry.npmjs.org', 'registry.yarnpkg.com', 'pypi.org', 'files.pythonhosted.org', 'rubygems.org', 'index.crates.io', 'crates.io'];

/** `package-installs`' config (what `examples-hooks/policies/package-installs/rules.ts` reads, defaults filled in). */
export const PackageInstallsConfigSchema = z.strictObject({
  /** Hosts an install may fetch from (`example.com`, `*.example.com`): a `--registry`/`--index-url` or a URL/git spec elsewhere is outside. */
  registries: z
    .array(z.string().trim().toLowerCase().regex(/^(?:\*\.)?[a-z0-9.-]+$/, 'a host (registry.npmjs.org) or *.example.com'))
    .default(DEFAULT_REGISTRIES),
  /** A downloader piped into a shell or interpreter (`curl … | sh`, `bash <(curl …)`). */
  pipeToShell: z.enum(['deny', 'ask']).default('deny'),
  /** An install from outside `registries`. */
  outside: z.enum(['deny', 'ask']).default('deny'),
});

export const PACKAGE_INSTALLS: CatalogPolicy = {
  name: 'package-installs',
  summary: 'denies or asks for installs from outside the allowed registries (npm/pnpm/yarn/bun, pip/uv/pipx/poetry, gem, cargo: --registry, --index-url, URL and git specs) and curl | sh installers',
  seams: ['tools/pre-execute'],
  rules: ['pipe-to-shell', 'registry', 'direct-source', 'unreadable', 'config-error'],
  configSchema: PackageInstallsConfigSchema,
  example: { registries: ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org', 'npm.internal.example.com'], pipeToShell: 'deny', outside: 'ask' },
};
