import path from 'node:path';
import type { SeamListener } from '../events/index.ts';
import { selfProtectionHook } from '../guard/index.ts';
import type { LayeredConfig } from './layered-config.ts';

/**
 * hookbox's self-protection for a merged config, to run before its hooks:
 * the project is the project config's folder (else each session's own), and
 * every layer file is protected, present or not (creating the user's would
 * be a change too). `undefined` when a layer above the project turned it off.
 */
export function selfProtectionFor(config: Pick<LayeredConfig, 'layers' | 'selfProtection'>, projectConfig?: string): SeamListener | undefined {
  if (!config.selfProtection.enabled) return undefined;
  return selfProtectionHook({
    ...(projectConfig !== undefined && { project: path.dirname(path.resolve(projectConfig)) }),
    configFiles: config.layers.map((layer) => layer.file),
    settings: config.selfProtection,
  });
}
