import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR, type ExampleHook } from '../../examples-hooks/build.ts';

/** The built manifest of an example hook (the global setup builds them). */
export function exampleManifest(name: ExampleHook): string {
  return join(EXAMPLES_DIR, name, 'dist', 'hook.json');
}

export interface ConfigEntry {
  readonly name: ExampleHook;
  readonly config?: Record<string, string>;
  readonly [key: string]: unknown;
}

/** Writes a hookbox.config.json with these example hooks, in order, and returns its path. */
export function writeExampleConfig(dir: string, entries: readonly ConfigEntry[], file = 'hookbox.config.json'): string {
  const path = join(dir, file);
  const hooks = entries.map((entry) => ({ ...entry, manifest: exampleManifest(entry.name) }));
  writeFileSync(path, `${JSON.stringify({ hooks }, null, 2)}\n`);
  return path;
}
