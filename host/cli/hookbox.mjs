#!/usr/bin/env node
// The `hookbox` bin. `hookbox hook <agent>` (run by an agent per event) takes
// a plain-JS path with no TypeScript loader. Everything else runs the CLI
// bundle in dist/bin/: always in an installed package, and in a development
// checkout while it is fresh, else the TypeScript sources through tsx, so a
// checkout never runs stale code (see ../fresh-build.mjs).
// Node's compile cache first (Node 22+; nothing on 20), so every module loaded below is read back compiled.
import { createRequire } from 'node:module';
createRequire(import.meta.url)('./compile-cache.cjs').enableCompileCache();
// `hookbox hook --help` is the CLI's help for the command, not an event for the client.
if (process.argv[2] === 'hook' && !['--help', '-h'].includes(process.argv[3] ?? '')) {
  const { default: client } = await import('./hookbox-hook.cjs');
  await client.runHookClient(process.argv.slice(3));
} else {
  const { freshBin, isCheckout } = await import('../fresh-build.mjs');
  let main;
  const bin = freshBin();
  if (bin !== undefined) {
    ({ main } = await import(new URL('main.js', bin).href));
  } else if (!isCheckout()) {
    const { fileURLToPath } = await import('node:url');
    process.stderr.write(`hookbox: this installed package has no CLI build (${fileURLToPath(new URL('../../dist/bin/main.js', import.meta.url))} is missing); reinstall hookbox\n`);
    process.exit(1);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    ({ main } = await import('./main.ts'));
  }
  process.exitCode = await main(process.argv);
}
