#!/usr/bin/env node
// The `hookbox` bin. `hookbox hook <agent>` (run by an agent per event) takes
// a plain-JS path with no TypeScript loader. Everything else runs the
// compiled CLI from dist/ when the build is present and fresh, else the
// TypeScript sources through tsx, so a checkout never runs stale code
// (see ./fresh-build.mjs).
if (process.argv[2] === 'hook') {
  const { default: client } = await import('./hookbox-hook.cjs');
  await client.runHookClient(process.argv.slice(3));
} else {
  const { freshBuild } = await import('./fresh-build.mjs');
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
}
