import { type HookPackage, manifestDifferences, manifestPin } from '../../config/index.ts';
import { HookLoadError } from '../../errors.ts';
import { printable } from '../../text/index.ts';

/**
 * The second install of `hookbox add` must be the package that was reviewed:
 * a registry can publish a new version between the two, and a folder can
 * change. Same name and version, the same hooks, and for each hook the same
 * wasm digest and the same manifest in every field (seams, tools, limits,
 * capabilities, protocol, config keys, …), or nothing is written. The error
 * names each hook and field that differs.
 */
export function assertSameAsReviewed(reviewed: HookPackage, installed: HookPackage, spec: string): void {
  const differences: string[] = [];
  if (reviewed.name !== installed.name || reviewed.version !== installed.version) {
    differences.push(`the package is ${installed.name}@${installed.version}, ${reviewed.name}@${reviewed.version} was reviewed`);
  }
  const names = (pkg: HookPackage) => pkg.hooks.map((hook) => hook.manifest.name).join(', ');
  if (names(reviewed) !== names(installed)) differences.push(`its hooks are ${names(installed) || 'none'}, ${names(reviewed)} were reviewed`);
  for (const hook of installed.hooks) {
    const before = reviewed.hooks.find((candidate) => candidate.manifest.name === hook.manifest.name);
    if (before === undefined) continue;
    if (before.sha256 !== hook.sha256) differences.push(`hook ${hook.manifest.name}: the wasm has sha256 ${hook.sha256}, ${before.sha256} was reviewed`);
    const fields = manifestDifferences(manifestPin(before.manifest), manifestPin(hook.manifest));
    if (fields.length > 0) differences.push(`hook ${hook.manifest.name}: ${fields.join(', ')} of its hook.json ${fields.length === 1 ? 'differs' : 'differ'} from the review`);
  }
  if (differences.length > 0) {
    const text = printable(differences.join('; '), { maxLength: 2000 });
    throw new HookLoadError(`${spec}: npm installed a package that differs from the one reviewed: ${text}; the config was not changed (run hookbox add again to review it)`);
  }
}
