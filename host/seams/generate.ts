/**
 * Generates, from the seam definitions, everything that must not be written
 * twice: the JSON Schema of the wire contract and the PDK's TypeScript types.
 * Run `npm run gen`; `tests/golden/generated.spec.ts` fails when the
 * checked-in files are stale.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { z } from 'zod';
import { PROTOCOL_VERSION, SessionInfoSchema } from './envelope.ts';
import { HookFaultSchema } from './fault.ts';
import { SEAMS, SEAM_IDS } from './index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GENERATED_DIR = join(ROOT, 'pdk', 'generated');

/** The TypeScript/JSON Schema name of each seam's payload and decision types. */
const TYPE_NAMES = {
  'agent/session-start': ['SessionStartPayload', 'SessionStartDecision'],
  'agent/prompt-submit': ['PromptSubmitPayload', 'PromptDecision'],
  'tools/pre-execute': ['PreToolPayload', 'PreToolDecision'],
  'tools/post-execute': ['PostToolPayload', 'PostToolDecision'],
  'agent/turn-continuation': ['TurnContinuationPayload', 'ContinuationDecision'],
} as const satisfies Record<keyof typeof SEAMS, readonly [string, string]>;

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
    const [payloadName, decisionName] = TYPE_NAMES[id];
    defs[payloadName] = jsonSchema(SEAMS[id].payload);
    defs[decisionName] = jsonSchema(SEAMS[id].decision);
  }
  return defs;
}

/** The whole wire contract as one JSON Schema document. */
export function renderWireContract(): string {
  const seams = Object.fromEntries(
    SEAM_IDS.map((id) => {
      const [payloadName, decisionName] = TYPE_NAMES[id];
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
    `/** The wire protocol version this PDK speaks. */`,
    `export const PROTOCOL_VERSION = ${PROTOCOL_VERSION};`,
    '',
  ];
  for (const [name, schema] of Object.entries(definitions())) {
    const source = await compile(schema as JSONSchema, name, {
      bannerComment: '',
      additionalProperties: false,
      format: true,
      style: { singleQuote: true },
    });
    parts.push(source.trim(), '');
  }
  const seamUnion = SEAM_IDS.map((id) => `'${id}'`).join(' | ');
  const exportsMap = SEAM_IDS.map((id) => `  '${id}': '${SEAMS[id].exportName}';`).join('\n');
  parts.push(
    `/** Every seam id. */`,
    `export type SeamId = ${seamUnion};`,
    '',
    `/** The wasm export that handles each seam. */`,
    `export interface SeamExports {\n${exportsMap}\n}`,
    '',
    `/** What a hook export receives (msgpack). */`,
    `export interface Envelope<P, D> {\n  v: typeof PROTOCOL_VERSION;\n  seam: SeamId;\n  session: SessionInfo;\n  payload: P;\n  next: D | null;\n}`,
    '',
  );
  return parts.join('\n');
}

export async function renderGenerated(): Promise<Record<string, string>> {
  return {
    [join(GENERATED_DIR, 'wire-contract.schema.json')]: renderWireContract(),
    [join(GENERATED_DIR, 'seams.ts')]: await renderPdkTypes(),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await mkdir(GENERATED_DIR, { recursive: true });
  for (const [path, content] of Object.entries(await renderGenerated())) {
    await writeFile(path, content);
    console.log(`wrote ${path}`);
  }
}
