// Worker entry. Workers start in plain Node: from the build (dist/), the
// compiled worker sits beside this file; from the TypeScript sources (tests,
// a checkout without a fresh build), register tsx's loader first.
import { existsSync } from 'node:fs';

const compiled = new URL('./worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./worker.ts');
}
