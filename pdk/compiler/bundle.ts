/**
 * Bundles a hook's entry with esbuild into one classic script (iife, ES2020)
 * that QuickJS evaluates at pre-initialization. A generated wrapper imports
 * the entry and publishes its export table as `globalThis.__hookbox_exports`.
 */
import { dirname, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { PACKAGE_ROOT } from '../../host/package.ts';
import { BuildError } from '../../host/errors.ts';

const COLLECT_EXPORTS = join(PACKAGE_ROOT, 'pdk', 'runtime', 'collect-exports.ts');

/** The bundle and its source map (sources relative to `mapDir`). */
export interface HookBundle {
  code: string;
  map: string;
  mapDir: string;
}

function location(message: esbuild.Message, workDir: string): string {
  const loc = message.location;
  return loc ? `${resolve(workDir, loc.file)}:${loc.line}:${loc.column + 1}: ` : '';
}

/**
 * esbuild marks each module with a `// relative/path.ts` comment. Through a
 * symlinked dependency (a hook project's `node_modules/hookbox`) that path
 * depends on where the checkout lives, and the bundle ends up in the
 * snapshot: keep only the file name, on the same line, so that builds stay
 * byte-identical across machines and line numbers still match the map.
 */
function stripPathComments(code: string): string {
  return code.replace(/^(\s*)\/\/ (?:[^\s/]*\/)+([^\s/]+\.[cm]?[jt]sx?)$/gm, '$1// $2');
}

/** Bundles `entry` (absolute path); esbuild errors become one BuildError naming file:line:col. */
export async function bundleHook(entry: string): Promise<HookBundle> {
  const workDir = dirname(entry);
  const importPath = (path: string) => JSON.stringify(`./${relative(workDir, path).split('\\').join('/')}`);
  const wrapper =
    `import * as entry from ${importPath(entry)};\n` +
    `import { collectExports } from ${importPath(COLLECT_EXPORTS)};\n` +
    `globalThis.__hookbox_exports = collectExports(entry);\n`;
  try {
    const result = await esbuild.build({
      stdin: { contents: wrapper, resolveDir: workDir, sourcefile: '<hookbox-entry>', loader: 'js' },
      // Relative paths in comments and the map: the bundle must not depend on where it was built from.
      absWorkingDir: workDir,
      bundle: true,
      format: 'iife',
      target: 'es2020',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'default'],
      outfile: join(workDir, 'hook.js'),
      sourcemap: 'external',
      sourcesContent: false,
      legalComments: 'none',
      charset: 'utf8',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
    if (!code || !map) throw new BuildError(`esbuild produced no bundle for ${entry}`);
    return { code: stripPathComments(code.text), map: map.text, mapDir: workDir };
  } catch (error) {
    if (error instanceof BuildError) throw error;
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw new BuildError(`bundling ${entry} failed`, { cause: error });
    const lines = failure.errors.map((m) => `${location(m, workDir)}${m.text}`);
    throw new BuildError(`bundling failed:\n${lines.join('\n')}`, { cause: error });
  }
}
