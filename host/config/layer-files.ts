import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import { realpathOrNull } from './capabilities.ts';

/** The configuration layers, highest first: a layer binds every layer after it. */
export const LAYER_NAMES = ['organisation', 'user', 'project'] as const;
/** One configuration layer's name. */
export type LayerName = (typeof LAYER_NAMES)[number];

/** Where the organisation layer lives unless `HOOKBOX_ORG_CONFIG` names another file. */
export const DEFAULT_ORG_CONFIG = '/etc/hookbox/config.json';

/** One layer's file: where it is looked for, how it was chosen, and whether it is there. */
export interface LayerFile {
  readonly layer: LayerName;
  /** Absolute path of the file. */
  readonly file: string;
  /** How the path was chosen, e.g. `HOOKBOX_ORG_CONFIG`, `$XDG_CONFIG_HOME`, `--config`. */
  readonly from: string;
  /** Absent organisation and user files are no layer; `shadowedBy` is a file already loaded as a higher layer. */
  readonly present: boolean;
  readonly shadowedBy?: LayerName;
}

/** Where to look: the project file (`--config`) and the environment (tests pass their own). */
export interface LayerFileOptions {
  readonly project?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The three layer files, highest first. The organisation file is
 * `HOOKBOX_ORG_CONFIG` or `/etc/hookbox/config.json`; the user file is
 * `$XDG_CONFIG_HOME/hookbox/config.json` or `~/.config/hookbox/config.json`;
 * the project file is `--config`. A default path that does not exist is no
 * layer, but a file someone named (`HOOKBOX_ORG_CONFIG`, `--config`) must
 * exist: running without the policy a person pointed at would be a silent
 * weakening. The project layer is never discovered from the working
 * directory: a cloned repository's config may hold unsandboxed shell hooks.
 */
export function layerFiles(options: LayerFileOptions = {}): LayerFile[] {
  const env = options.env ?? process.env;
  const named = nonEmpty(env.HOOKBOX_ORG_CONFIG);
  const org = named !== undefined ? { file: path.resolve(named), from: 'HOOKBOX_ORG_CONFIG' } : { file: DEFAULT_ORG_CONFIG, from: 'default' };
  if (named !== undefined && !existsSync(org.file)) {
    throw new ConfigError(`HOOKBOX_ORG_CONFIG names ${org.file}, which does not exist; the organisation layer cannot be skipped (unset the variable to use ${DEFAULT_ORG_CONFIG})`);
  }
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  // The XDG base-directory spec ignores a relative XDG_CONFIG_HOME.
  const user =
    xdg !== undefined && path.isAbsolute(xdg)
      ? { file: path.join(xdg, 'hookbox', 'config.json'), from: '$XDG_CONFIG_HOME' }
      : { file: path.join(nonEmpty(env.HOME) ?? homedir(), '.config', 'hookbox', 'config.json'), from: '~/.config' };
  const files: LayerFile[] = [
    { layer: 'organisation', ...org, present: existsSync(org.file) },
    { layer: 'user', ...user, present: existsSync(user.file) },
  ];
  if (options.project !== undefined) {
    // Present even when missing: reading it then fails with the file's name, as a single config always did.
    files.push({ layer: 'project', file: path.resolve(options.project), from: '--config', present: true });
  }
  return withoutRepeats(files);
}

/** A file named twice (`--config ~/.config/hookbox/config.json`) is loaded once, as its highest layer. */
function withoutRepeats(files: LayerFile[]): LayerFile[] {
  const seen = new Map<string, LayerName>();
  return files.map((entry) => {
    if (!entry.present) return entry;
    const real = realpathOrNull(entry.file) ?? entry.file;
    const higher = seen.get(real);
    if (higher !== undefined) return { ...entry, present: false, shadowedBy: higher };
    seen.set(real, entry.layer);
    return entry;
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
