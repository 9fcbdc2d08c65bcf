/**
 * Rewrites the bridge golden tables (`tests/golden/bridges/*.json`) from
 * `bridges-cases.ts`. Run it only on purpose (`npm run golden:update`) and
 * review the diff: the tables are the contract with Claude Code / Codex hooks.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { GOLDEN_DIR, renderBridgeGolden } from './bridges-golden.ts';

await mkdir(GOLDEN_DIR, { recursive: true });
for (const [path, content] of Object.entries(await renderBridgeGolden())) {
  await writeFile(path, content);
  console.log(`wrote ${path}`);
}
