import { existsSync } from 'node:fs';
import type { AgentBridge, DoctorFinding } from '../agents/index.ts';
import { ConfigError } from '../errors.ts';
import { locatorFile, physical, readLocator } from './setup-locator.ts';

/**
 * Doctor's line on the user-level locator (setup-locator.ts) for a project:
 * whether it holds the project, so that the agent started in a subfolder is
 * guarded, and whether what it names there (client, config) still exists —
 * a record whose client is gone refuses every event below the project.
 * Undefined for an agent with no locator.
 */
export function locatorFinding(bridge: AgentBridge, projectDir: string): DoctorFinding | undefined {
  if (bridge.setup.locator === undefined) return undefined;
  const file = locatorFile(bridge);
  let records;
  try {
    records = readLocator(bridge);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { ok: false, what: error.message, fix: `fix or delete hookbox's locator entry in ${file}, then hookbox setup ${bridge.name} in each project` };
  }
  const project = physical(projectDir);
  const mine = records.filter((record) => record.root === project || record.folder === project);
  if (mine.length === 0) {
    // Informational: where the start folder is unguarded, startFolderNote's finding fails doctor there.
    return { ok: true, what: `no hookbox locator for ${project} in ${file} (setup --no-locator): ${bridge.label} started in a subfolder of it runs only that folder's own entries, if any` };
  }
  for (const record of mine) {
    const gone = [record.client, record.config].filter((file) => !existsSync(file));
    if (gone.length > 0) {
      return {
        ok: false,
        what: `the hookbox locator in ${file} names ${gone.join(' and ')} for ${record.root}, which ${gone.length === 1 ? 'is' : 'are'} gone: ${bridge.label} started below it refuses every event`,
        fix: `hookbox setup ${bridge.name} --project ${record.folder} (it writes the record again), or hookbox setup ${bridge.name} --remove --project ${record.folder}`,
      };
    }
  }
  return { ok: true, what: `the hookbox locator in ${file} guards the folders below ${project}: ${bridge.label} started there decides with ${mine[0]!.config}` };
}
