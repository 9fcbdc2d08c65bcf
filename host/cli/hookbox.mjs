#!/usr/bin/env node
// The `hookbox` bin. Runs the compiled CLI from dist/ when the build is
// present and fresh, else the TypeScript sources through tsx, so a checkout
// never runs stale code. See ./fresh-build.mjs.
import { freshBuild } from './fresh-build.mjs';

let main;
const build = freshBuild();
if (build !== undefined) {
  ({ main } = await import(new URL('host/cli/main.js', build).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv);
