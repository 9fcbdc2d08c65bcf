#!/usr/bin/env node
// The `hookbox` bin. `hookbox hook <agent>` (run by an agent per event) takes
// a plain-JS path with no TypeScript loader; everything else registers the
// loader and runs the CLI.
if (process.argv[2] === 'hook') {
  const { default: client } = await import('./hookbox-hook.cjs');
  await client.runHookClient(process.argv.slice(3));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('./main.ts');
  process.exitCode = await main(process.argv);
}
