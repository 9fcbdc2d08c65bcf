// The native per-event client (host/cli/native/hookbox-hook.c with ask.c and sha256.c, issue #55), built by
// `npm run build` (so `prepare` and `pack`) into dist/native/<platform>-<arch>/
// where a C compiler is present; where none is, one line says so and the sh
// and node clients serve (setup picks the native one only when it is built
// and runs).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The platform folder a build goes in (`linux-x64`). */
export function nativePlatform() {
  return `${process.platform}-${process.arch}`;
}

/** Compiles the client into `<dist>/native/<platform>/hookbox-hook`; returns its path, or undefined (said why on one line). */
export function buildNative(root, dist) {
  const compiler = [process.env.CC, 'cc', 'gcc', 'clang'].find((cc) => cc !== undefined && cc !== '' && spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0);
  if (compiler === undefined) {
    console.log('native client: skipped (no C compiler: cc, gcc or clang); the sh and node clients serve');
    return undefined;
  }
  const out = join(dist, 'native', nativePlatform());
  mkdirSync(out, { recursive: true });
  const binary = join(out, 'hookbox-hook');
  const sources = ['hookbox-hook.c', 'ask.c', 'sha256.c'].map((file) => join(root, 'host', 'cli', 'native', file));
  const built = spawnSync(compiler, ['-O2', '-std=c11', '-Wall', '-Wextra', '-o', binary, ...sources], { encoding: 'utf8' });
  if (built.status !== 0) {
    console.log(`native client: not built (${compiler} failed: ${(built.stderr ?? '').trim().split('\n')[0] ?? ''}); the sh and node clients serve`);
    return undefined;
  }
  console.log(`native client: ${binary}`);
  return binary;
}
