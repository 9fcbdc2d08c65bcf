/**
 * Generates, from the seam definitions, everything that must not be written
 * twice: the seam names (ids, wasm exports, PDK handlers) as a dependency-free
 * module, the JSON Schema of the wire contract and the PDK's TypeScript types.
 * Run `npm run gen`; `tests/golden/generated.spec.ts` fails when the
 * checked-in files are stale.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import * as z from 'zod';
import { PROTOCOL_VERSION, SessionInfoSchema } from './envelope.ts';
import { HookFaultSchema } from './fault.ts';
import { SEAMS, SEAM_IDS } from './index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GENERATED_DIR = join(ROOT, 'pdk', 'generated');

/** A seam's PDK handler name: its export name in camelCase (`pre_tool` → `preTool`). */
export function handlerName(exportName: string): string {
  return exportName.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return rest;
}

function definitions(): Record<string, Record<string, unknown>> {
  const defs: Record<string, Record<string, unknown>> = {
    SessionInfo: jsonSchema(SessionInfoSchema),
    HookFault: jsonSchema(HookFaultSchema),
  };
  for (const id of SEAM_IDS) {
    const { payload: payloadName, decision: decisionName } = SEAMS[id].typeNames;
    defs[payloadName] = jsonSchema(SEAMS[id].payload);
    defs[decisionName] = jsonSchema(SEAMS[id].decision);
  }
  return defs;
}

/** The whole wire contract as one JSON Schema document. */
export function renderWireContract(): string {
  const seams = Object.fromEntries(
    SEAM_IDS.map((id) => {
      const { payload: payloadName, decision: decisionName } = SEAMS[id].typeNames;
      return [
        id,
        {
          kind: SEAMS[id].kind,
          export: SEAMS[id].exportName,
          defaultFailPolicy: SEAMS[id].defaultFailPolicy,
          envelope: {
            type: 'object',
            properties: {
              v: { const: PROTOCOL_VERSION },
              seam: { const: id },
              session: { $ref: '#/$defs/SessionInfo' },
              payload: { $ref: `#/$defs/${payloadName}` },
              next: { anyOf: [{ $ref: `#/$defs/${decisionName}` }, { type: 'null' }] },
            },
            required: ['v', 'seam', 'session', 'payload', 'next'],
            additionalProperties: false,
          },
          decision: { $ref: `#/$defs/${decisionName}` },
        },
      ];
    }),
  );
  const document = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://hookbox.dev/schema/wire-contract.json',
    title: 'hookbox wire contract',
    description:
      'Generated from host/seams by `npm run gen`; do not edit. Input of each hook export is the msgpack of the seam envelope; output is the msgpack of a decision, or empty for no opinion.',
    protocolVersion: PROTOCOL_VERSION,
    seams,
    $defs: definitions(),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The PDK's TypeScript types, one per schema. */
export async function renderPdkTypes(): Promise<string> {
  const parts: string[] = [
    '/* Generated from host/seams by `npm run gen`; do not edit. */',
    '/* eslint-disable */',
    '',
    `import type { SeamId } from './seam-names.ts';`,
    `export type { SeamId } from './seam-names.ts';`,
    '',
    `/** The wire protocol version this PDK speaks. */`,
    `export const PROTOCOL_VERSION = ${PROTOCOL_VERSION};`,
    '',
  ];
  const docs: Record<string, string> = {
    SessionInfo: 'The session facts every hook call carries: `{id, turn, step, cwd}`.',
    HookFault: 'A hook failure as the host records it.',
  };
  for (const id of SEAM_IDS) {
    docs[SEAMS[id].typeNames.payload] = `What a \`${id}\` hook receives.`;
    docs[SEAMS[id].typeNames.decision] = `What a \`${id}\` hook may answer.`;
  }
  for (const [name, schema] of Object.entries(definitions())) {
    parts.push(`/** ${docs[name] ?? name} */`);
    const source = await compile(schema as JSONSchema, name, {
      bannerComment: '',
      additionalProperties: false,
      format: true,
      style: { singleQuote: true },
    });
    parts.push(source.trim(), '');
  }
  const typesMap = SEAM_IDS.map((id) => {
    const { payload, decision } = SEAMS[id].typeNames;
    return `  '${id}': { payload: ${payload}; decision: ${decision} };`;
  }).join('\n');
  parts.push(
    `/** The payload and decision type of each seam. */`,
    `export interface SeamTypes {\n${typesMap}\n}`,
    '',
    `/** What a hook export receives (msgpack). */`,
    `export interface Envelope<P, D> {\n  v: typeof PROTOCOL_VERSION;\n  seam: SeamId;\n  session: SessionInfo;\n  payload: P;\n  next: D | null;\n}`,
    '',
  );
  return parts.join('\n');
}

/** The seam names as a module with no imports: the runner's workers, the PDK and the host all read it. */
export function renderSeamNames(): string {
  const rows = SEAM_IDS.map(
    (id) => `  { id: '${id}', export: '${SEAMS[id].exportName}', handler: '${handlerName(SEAMS[id].exportName)}' },`,
  ).join('\n');
  return `/* Generated from host/seams by \`npm run gen\`; do not edit. */
/* eslint-disable */

/**
 * Every seam in lifecycle order: its id, its wasm export and its PDK handler.
 * A seam's position is its export index on the runner's call channel.
 */
export const SEAM_NAMES = [
${rows}
] as const;

export type SeamName = (typeof SEAM_NAMES)[number];
/** A seam id. */
export type SeamId = SeamName['id'];
/** A wasm export name of one seam. */
export type SeamExport = SeamName['export'];
/** A PDK handler name of one seam. */
export type HandlerName = SeamName['handler'];

/** The export names by index. */
export const SEAM_EXPORTS: readonly SeamExport[] = SEAM_NAMES.map((name) => name.export);

/** PDK handler name → wasm export name. */
export const HANDLER_EXPORTS = Object.fromEntries(SEAM_NAMES.map((name) => [name.handler, name.export])) as {
  readonly [N in SeamName as N['handler']]: N['export'];
};
`;
}

export async function renderGenerated(): Promise<Record<string, string>> {
  return {
    [join(GENERATED_DIR, 'wire-contract.schema.json')]: renderWireContract(),
    [join(GENERATED_DIR, 'seams.ts')]: await renderPdkTypes(),
    [join(GENERATED_DIR, 'seam-names.ts')]: renderSeamNames(),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await mkdir(GENERATED_DIR, { recursive: true });
  for (const [path, content] of Object.entries(await renderGenerated())) {
    await writeFile(path, content);
    console.log(`wrote ${path}`);
  }
}
