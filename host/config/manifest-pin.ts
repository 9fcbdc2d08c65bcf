import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { HookManifest } from './manifest.ts';

/**
 * Every field of `hook.json` a person reviews in `hookbox add`, in the order
 * they are compared and named. The manifest schema is strict, so these are
 * all of its fields: a pin over them is a pin over the whole manifest.
 */
export const MANIFEST_FIELDS = ['name', 'version', 'protocol', 'wasm', 'sha256', 'seams', 'tools', 'limits', 'capabilities', 'config', 'description'] as const;
/** One field of a hook manifest. */
export type ManifestField = (typeof MANIFEST_FIELDS)[number];

const HEX_SHA256 = z.string().regex(/^[0-9a-f]{64}$/, 'a 64-digit lowercase hex sha256');

/**
 * The manifest part of a pin: the sha256 of the whole manifest's canonical
 * serialization, and one sha256 per field so a difference can be named.
 */
export const ManifestPinSchema = z.strictObject({
  sha256: HEX_SHA256,
  fields: z.strictObject(Object.fromEntries(MANIFEST_FIELDS.map((field) => [field, HEX_SHA256])) as Record<ManifestField, typeof HEX_SHA256>),
});
/** What a pin records of the reviewed manifest. */
export type ManifestPin = z.infer<typeof ManifestPinSchema>;

/**
 * The canonical serialization of a JSON value: objects with their keys in
 * code-unit order, no whitespace, strings and numbers as `JSON.stringify`
 * writes them, arrays in their order. An absent value is `null` (the
 * manifest schema admits no null, so the two cannot be confused).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The pin of a parsed manifest (defaults applied, so `"protocol": 1` written
 * or left out is the same manifest): the digest of the canonical object of
 * every field, and each field's digest.
 */
export function manifestPin(manifest: HookManifest): ManifestPin {
  const whole: Record<string, unknown> = {};
  const fields = {} as Record<ManifestField, string>;
  for (const field of MANIFEST_FIELDS) {
    whole[field] = manifest[field];
    fields[field] = sha256(canonicalJson(manifest[field]));
  }
  return { sha256: sha256(canonicalJson(whole)), fields };
}

/**
 * The fields in which `actual` differs from the reviewed pin, in manifest
 * order; empty when the whole digest matches. A whole digest that differs
 * with every field equal (a pin edited by hand) is reported as `manifest`.
 */
export function manifestDifferences(reviewed: ManifestPin, actual: ManifestPin): readonly (ManifestField | 'manifest')[] {
  if (reviewed.sha256 === actual.sha256) return [];
  const fields = MANIFEST_FIELDS.filter((field) => reviewed.fields[field] !== actual.fields[field]);
  return fields.length > 0 ? fields : ['manifest'];
}
