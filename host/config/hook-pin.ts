import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { parseJsonText } from '../json/index.ts';
import { type HookManifest, HookManifestSchema } from './manifest.ts';
import { type ManifestPin, ManifestPinSchema, manifestDifferences, manifestPin } from './manifest-pin.ts';

/**
 * What `hookbox add` wrote into a config entry: the npm package the hook came
 * from, the sha256 of the wasm that was reviewed and, for a manifest entry,
 * the digest of the whole reviewed manifest (seams, tools, limits,
 * capabilities, protocol, config keys, …). A wasm, manifest or package that
 * no longer matches in any of it is refused wherever hooks load.
 */
export const HookPinSchema = z.strictObject({
  /** The npm package name (`@acme/guard`); absent for a wasm pinned by hand. */
  package: z.string().min(1).optional(),
  /** The package version that was reviewed; checked against the installed package.json. */
  version: z.string().min(1).optional(),
  /** Hex sha256 of the reviewed wasm bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lowercase hex sha256'),
  /** The reviewed manifest (`manifestPin`): required for a manifest entry, refused on a wasm entry. */
  manifest: ManifestPinSchema.optional(),
});
/** A config entry's pin: package name and version (for package hooks), the wasm's sha256, the manifest's digests. */
export type HookPin = z.infer<typeof HookPinSchema>;

/** One way a hook differs from its pin, with both sides (digests, names or versions). */
export interface PinProblem {
  readonly what: 'wasm' | 'manifest' | 'package';
  /** For a manifest that differs from the reviewed one: the fields that differ (`tools`, `limits`, …). */
  readonly fields?: readonly string[];
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
  /** The manifest as read and checked (a manifest entry whose manifest parsed): load it, not a second read. */
  readonly manifest?: HookManifest;
  /** The pin of that manifest, as `hookbox add` would write it. */
  readonly manifestPin?: ManifestPin;
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
  let read: ReadManifest | undefined;
  if (target.manifest !== undefined) {
    const result = readManifest(target.manifest);
    if (typeof result === 'string') {
      problems.push({ what: 'manifest', expected: pin?.sha256 ?? 'a readable hook.json', actual: 'unreadable', message: `${target.manifest}: ${result}` });
    } else {
      read = result;
      wasmFile = read.wasm;
      manifestSha = read.manifest.sha256;
      if (pin !== undefined) problems.push(...manifestProblems(target.manifest, read, pin));
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
  return {
    status,
    ...(wasmSha256 !== undefined && { wasmSha256 }),
    ...(read !== undefined && { manifest: read.manifest, manifestPin: read.pin }),
    problems,
  };
}

/**
 * The manifest on disk against the pin: its wasm digest, and every other
 * field against the reviewed manifest's digests. A pin without the manifest
 * part was written before hookbox pinned the whole manifest; it is refused
 * with how to re-pin, not trusted on its wasm digest alone.
 */
function manifestProblems(file: string, read: ReadManifest, pin: HookPin): PinProblem[] {
  const problems: PinProblem[] = [];
  if (read.manifest.sha256 !== pin.sha256) {
    problems.push({
      what: 'manifest',
      fields: ['sha256'],
      expected: pin.sha256,
      actual: read.manifest.sha256,
      message: `${file}: the manifest now pins sha256 ${read.manifest.sha256}, the config pinned ${pin.sha256}`,
    });
  }
  if (pin.manifest === undefined) {
    const how =
      pin.package !== undefined
        ? `run \`hookbox add ${pin.package}\` again (or with the tarball or folder it came from) to review and re-pin it`
        : `add "manifest": ${JSON.stringify(read.pin)} to the pin once you have reviewed ${file} (\`hookbox verify --json\` prints it as manifestPin)`;
    problems.push({
      what: 'manifest',
      expected: 'a pin of the whole manifest',
      actual: read.pin.sha256,
      message: `${file}: the config's pin covers only the wasm's sha256, not the manifest's seams, tools, limits and capabilities (an older hookbox wrote it); ${how}`,
    });
    return problems;
  }
  const fields = manifestDifferences(pin.manifest, read.pin).filter((field) => field !== 'sha256' || problems.length === 0);
  if (fields.length > 0) {
    problems.push({
      what: 'manifest',
      fields,
      expected: pin.manifest.sha256,
      actual: read.pin.sha256,
      message: `${file}: ${fields.join(', ')} ${fields.length === 1 ? 'differs' : 'differ'} from the reviewed manifest (pinned manifest sha256 ${pin.manifest.sha256}, now ${read.pin.sha256})`,
    });
  }
  return problems;
}

interface ReadManifest {
  /** Absolute path of the wasm. */
  readonly wasm: string;
  readonly manifest: HookManifest;
  readonly pin: ManifestPin;
}

/** The manifest parsed, its wasm path (absolute) and its pin, or why it cannot be read. */
function readManifest(file: string): ReadManifest | string {
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
  return { wasm: path.resolve(path.dirname(file), parsed.data.wasm), manifest: parsed.data, pin: manifestPin(parsed.data) };
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
