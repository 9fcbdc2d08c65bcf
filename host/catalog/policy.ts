import type * as z from 'zod';
import type { SeamId } from '../seams/index.ts';

/**
 * One built-in policy: a sandboxed wasm hook built by hookbox's own build
 * (`examples-hooks/policies/<name>/hook.ts`, inside the one module
 * `dist/catalog/policies.wasm`; its manifest `dist/catalog/<name>/hook.json`)
 * and the schema of its typed config, checked host-side when a config names it.
 */
export interface CatalogPolicy {
  readonly name: string;
  /** One line: what it decides. */
  readonly summary: string;
  readonly seams: readonly SeamId[];
  /**
   * The rule ids its reasons start with (`<policy>: <rule>: …`): what
   * `hookbox test` counts for its coverage summary.
   */
  readonly rules: readonly string[];
  /** The config's schema: the source of its type, its JSON Schema and its errors. */
  readonly configSchema: z.ZodType;
  /** A config that passes the schema, printed by `hookbox policies <name>` and tested to pass it. */
  readonly example: unknown;
}
