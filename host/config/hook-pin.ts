import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { parseJsonText } from '../json/index.ts';
import { HookManifestSchema } from './manifest.ts';

/**
 * What `hookbox add` wrote into a config entry: the npm package the hook came
 * from and the sha256 of the wasm that was reviewed. A wasm (or manifest, or
 * package) that no longer matches is refused wherever hooks load.
 */
export const HookPinSchema = z.strictObject({
  /** The npm package name (`@acme/guard`); absent for a wasm pinned by hand. */
  package: z.string().min(1).optional(),
  /** The package version that was reviewed; checked against the installed package.json. */
  version: z.string().min(1).optional(),
  /** Hex sha256 of the reviewed wasm bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lowercase hex sha256'),
});
/** A config entry's pin: package name and version (for package hooks) and the wasm's sha256. */
export type HookPin = z.infer<typeof HookPinSchema>;

/** One way a hook differs from its pin, with both sides (digests, names or versions). */
export interface PinProblem {
  readonly what: 'wasm' | 'manifest' | 'package';
  /** What the pin (or, for an unpinned manifest hook, the manifest) says. */
  readonly expected: string;
  /** What is on disk now (`missing` when the file is gone). */
  readonly actual: string;
  /** One line naming the file and both values. */
  readonly message: string;
}

/** The outcome of checking one wasm hook against its pin (or an unpinned manifest against its wasm). */
export interface PinCheck {
  /** `ok`: matches its pin; `unpinned`: no pin, nothing contradicts the manifest; `changed`: see `problems`. */
  readonly status: 'ok' | 'unpinned' | 'changed';
  /** Hex sha256 of the wasm on disk (undefined when it cannot be read). */
  readonly wasmSha256?: string;
  readonly problems: readonly PinProblem[];
}

/** What to check: the entry's wasm, or its manifest (the wasm beside it), and its pin if any. */
export interface PinTarget {
  readonly pin?: HookPin;
  readonly wasm?: string;
  readonly manifest?: string;
}

/** Hex sha256 of a file, or undefined when it cannot be read. */
export function fileSha256(file: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Checks a wasm hook against its pin: the wasm's digest against the pin (and
 * the manifest's), the manifest's pinned digest against the pin, and the
 * package.json that holds the manifest against the pinned name and version.
 * Returns a value; a manifest that cannot be parsed is a `manifest` problem.
 */
export function checkPin(target: PinTarget): PinCheck {
  const problems: PinProblem[] = [];
  const { pin } = target;
  let wasmFile = target.wasm;
  let manifestSha: string | undefined;
  if (target.manifest !== undefined) {
    const read = readManifestDigest(target.manifest);
    if (typeof read === 'string') {
      problems.push({ what: 'manifest', expected: pin?.sha256 ?? 'a readable hook.json', actual: 'unreadable', message: `${target.manifest}: ${read}` });
    } else {
      wasmFile = read.wasm;
      manifestSha = read.sha256;
      if (pin !== undefined && read.sha256 !== pin.sha256) {
        problems.push({
          what: 'manifest',
          expected: pin.sha256,
          actual: read.sha256,
          message: `${target.manifest}: the manifest now pins sha256 ${read.sha256}, the config pinned ${pin.sha256}`,
        });
      }
    }
    if (pin?.package !== undefined) problems.push(...packageProblems(target.manifest, pin));
  }
  const wasmSha256 = wasmFile === undefined ? undefined : fileSha256(wasmFile);
  const expected = pin?.sha256 ?? manifestSha;
  if (wasmFile !== undefined && expected !== undefined && wasmSha256 !== expected) {
    const pinnedBy = pin !== undefined ? 'the config pinned' : 'its manifest pins';
    problems.push({
      what: 'wasm',
      expected,
      actual: wasmSha256 ?? 'missing',
      message:
        wasmSha256 === undefined
          ? `${wasmFile}: cannot read the wasm (${pinnedBy} sha256 ${expected})`
          : `${wasmFile}: the wasm has sha256 ${wasmSha256}, ${pinnedBy} ${expected}`,
    });
  }
  const status = problems.length > 0 ? 'changed' : pin !== undefined ? 'ok' : 'unpinned';
  return { status, ...(wasmSha256 !== undefined && { wasmSha256 }), problems };
}

/** The manifest's wasm path (absolute) and pinned digest, or why it cannot be read. */
function readManifestDigest(file: string): { wasm: string; sha256: string } | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `cannot read the manifest: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  let parsed;
  try {
    parsed = HookManifestSchema.safeParse(parseJsonText(file, text));
  } catch (error) {
    return (error as Error).message;
  }
  if (!parsed.success) return 'not a valid hook.json';
  return { wasm: path.resolve(path.dirname(file), parsed.data.wasm), sha256: parsed.data.sha256 };
}

const PackageIdentitySchema = z.object({ name: z.string(), version: z.string() });

/** The pinned package's name and version against the nearest package.json above the manifest. */
function packageProblems(manifest: string, pin: HookPin): PinProblem[] {
  const expected = `${pin.package}@${pin.version ?? '*'}`;
  const file = nearestPackageJson(path.dirname(manifest));
  if (file === undefined) {
    return [{ what: 'package', expected, actual: 'missing', message: `${manifest}: no package.json above the manifest (the config pinned ${expected})` }];
  }
  let identity: z.infer<typeof PackageIdentitySchema> | undefined;
  try {
    identity = PackageIdentitySchema.safeParse(JSON.parse(readFileSync(file, 'utf8'))).data;
  } catch {
    identity = undefined;
  }
  const actual = identity === undefined ? 'unreadable' : `${identity.name}@${identity.version}`;
  const matches = identity !== undefined && identity.name === pin.package && (pin.version === undefined || identity.version === pin.version);
  return matches ? [] : [{ what: 'package', expected, actual, message: `${file}: the package is ${actual}, the config pinned ${expected}` }];
}

function nearestPackageJson(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}
