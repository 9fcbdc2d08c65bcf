import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Fuzz properties run at a small size here; `npm run fuzz` runs them at full size.
    include: ['tests/**/*.spec.ts', 'tests/fuzz/**/*.fuzz.ts'],
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
    // Hermetic configuration layers: the machine's /etc/hookbox and ~/.config/hookbox never reach a test
    // (an organisation layer with no hooks; a user config folder with no hookbox config, outside the
    // checkout because other programs the tests start — Chromium — write their own config there).
    env: {
      HOOKBOX_ORG_CONFIG: fileURLToPath(new URL('tests/helpers/layers/no-org-policy.json', import.meta.url)),
      XDG_CONFIG_HOME: join(tmpdir(), 'hookbox-tests-xdg-config'),
      // No per-event client starts a detached `hookbox serve` (#55) unless its test asks for one: none outlives a test run.
      HOOKBOX_NO_AUTOSTART: '1',
      // No `setup` writes its user-level locator into the real ~/.claude/settings.json; the locator's specs opt back in with a private HOME.
      HOOKBOX_NO_LOCATOR: '1',
    },
  },
});
