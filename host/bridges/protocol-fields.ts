import * as z from 'zod';
import { issueLines } from '../json/index.ts';
import type { SeamId } from '../seams/index.ts';
import { EVENT_FOR_SEAM, PROTOCOL_LABEL, type ToolEventName, type ToolProtocol } from './protocol.ts';

/** Fields documented at the top level of a hook's JSON output (decision fields per event are checked below). */
const TOP_LEVEL_FIELDS = ['continue', 'stopReason', 'suppressOutput', 'systemMessage', 'decision', 'reason', 'hookSpecificOutput'];

/** `hookSpecificOutput` fields each supported event accepts. */
const SPECIFIC_FIELDS: Readonly<Record<ToolEventName, readonly string[]>> = {
  SessionStart: ['hookEventName', 'additionalContext'],
  UserPromptSubmit: ['hookEventName', 'additionalContext'],
  PreToolUse: ['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'updatedInput'],
  PostToolUse: ['hookEventName', 'additionalContext'],
  Stop: [],
  PermissionRequest: ['hookEventName', 'decision'],
  SubagentStart: ['hookEventName', 'additionalContext'],
  SubagentStop: [],
  Notification: [],
  PreCompact: [],
  SessionEnd: [],
};

/** Documented fields hookbox refuses, with why: answering them silently would change what the hook meant. */
const REFUSED_FIELDS: Readonly<Record<string, string>> = {
  updatedInput:
    'input rewrite is taken only on PreToolUse, as hookSpecificOutput.updatedInput with permissionDecision "allow" (docs/rfc-tool-input-rewrite.md); deny or ask instead',
  updatedMCPToolOutput: 'tool output replacement from a protocol hook is not offered; block the result instead',
  updatedToolOutput: 'tool output replacement from a protocol hook is not offered; block the result instead',
};

/** Fields that only mean something inside `hookSpecificOutput`; found flat, they are a mistake. */
const SPECIFIC_ONLY = ['permissionDecision', 'permissionDecisionReason', 'additionalContext', ...Object.keys(REFUSED_FIELDS)];

/** The `decision` values each event accepts at the top level. */
const DECISIONS: Readonly<Record<ToolEventName, readonly string[]>> = {
  SessionStart: [],
  UserPromptSubmit: ['block'],
  PreToolUse: ['approve', 'block'],
  PostToolUse: ['block'],
  Stop: ['block'],
  PermissionRequest: [],
  SubagentStart: [],
  SubagentStop: ['block'],
  Notification: [],
  PreCompact: ['block'],
  SessionEnd: [],
};

const OutputSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.string().optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      hookEventName: z.string().optional(),
      permissionDecision: z.string().optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
      /** PreToolUse's rewrite: the agent tool's complete new input. */
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      /** PermissionRequest's answer for the person. */
      decision: z
        .strictObject({
          behavior: z.enum(['allow', 'deny']),
          message: z.string().optional(),
          interrupt: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});

/** An exit-0 JSON output whose every field the seam's event documents and hookbox honours. */
export type ProtocolOutput = z.infer<typeof OutputSchema>;

/**
 * Checks a hook's exit-0 JSON object against the fields its event takes:
 * the output typed, or the `schema` fault's message naming the first field
 * hookbox cannot honour — `updatedInput`, a flat `permissionDecision`, a
 * field of another event, an unknown field, a `decision` the event does not
 * take — never silently dropped. What the fields decide is protocol-output.ts's.
 */
export function checkOutputFields(protocol: ToolProtocol, seam: SeamId, raw: Record<string, unknown>): { readonly output: ProtocolOutput } | { readonly problem: string } {
  const event = EVENT_FOR_SEAM[seam];
  const label = PROTOCOL_LABEL[protocol];
  for (const key of SPECIFIC_ONLY) {
    if (!Object.hasOwn(raw, key)) continue;
    const refused = REFUSED_FIELDS[key];
    if (refused !== undefined) return { problem: `output.${key}: ${refused}` };
    return {
      problem: `output.${key}: only meaningful inside hookSpecificOutput ({"hookSpecificOutput": {"hookEventName": "${event}", "${key}": …}}); ${label} would ignore it here, hookbox refuses it rather than drop it`,
    };
  }
  const unknown = Object.keys(raw).find((key) => !TOP_LEVEL_FIELDS.includes(key));
  if (unknown !== undefined) return { problem: `output.${unknown}: not a ${label} hook output field` };
  const specific = raw.hookSpecificOutput;
  if (specific !== undefined) {
    if (typeof specific !== 'object' || specific === null || Array.isArray(specific)) {
      return { problem: 'output.hookSpecificOutput: expected an object' };
    }
    const problem = checkSpecific(seam, specific as Record<string, unknown>);
    if (problem !== undefined) return { problem };
  }
  const parsed = OutputSchema.safeParse(raw);
  if (!parsed.success) return { problem: issueLines(parsed.error, 'output').join('; ') };
  const output = parsed.data;
  if (output.decision !== undefined && !DECISIONS[event].includes(output.decision)) {
    const allowed = DECISIONS[event].map((d) => `"${d}"`).join(' or ');
    return { problem: `output.decision: ${allowed === '' ? `${event} takes no decision` : `expected ${allowed}`}, got "${output.decision}"` };
  }
  return { output };
}

/** Problems with `hookSpecificOutput`, refused fields first so the message names what the hook tried. */
function checkSpecific(seam: SeamId, specific: Record<string, unknown>): string | undefined {
  const event = EVENT_FOR_SEAM[seam];
  for (const [key, why] of Object.entries(REFUSED_FIELDS)) {
    // PreToolUse's updatedInput is a rewrite (protocol-output.ts maps it back onto hookbox's tool).
    if (key === 'updatedInput' && event === 'PreToolUse') continue;
    if (Object.hasOwn(specific, key)) return `output.hookSpecificOutput.${key}: ${why}`;
  }
  if (event === 'Stop' || event === 'SubagentStop') {
    return `output.hookSpecificOutput: ${event} hooks have no hookSpecificOutput; use "decision": "block" with a "reason"`;
  }
  if (SPECIFIC_FIELDS[event].length === 0) return `output.hookSpecificOutput: ${event} hooks have no hookSpecificOutput`;
  const nested = (specific.decision as Record<string, unknown> | null | undefined)?.updatedInput;
  if (event === 'PermissionRequest' && nested !== undefined) return `output.hookSpecificOutput.decision.updatedInput: ${REFUSED_FIELDS.updatedInput}`;
  const name = specific.hookEventName;
  if (name !== undefined && name !== event) {
    return `output.hookSpecificOutput.hookEventName: expected "${event}" for ${seam}, got ${JSON.stringify(name)}`;
  }
  if (event === 'PreToolUse' && Object.hasOwn(specific, 'additionalContext')) {
    return 'output.hookSpecificOutput.additionalContext: a tools/pre-execute decision carries no context; add it from a PostToolUse hook';
  }
  const unknown = Object.keys(specific).find((key) => !SPECIFIC_FIELDS[event].includes(key));
  return unknown === undefined ? undefined : `output.hookSpecificOutput.${unknown}: not a ${event} hookSpecificOutput field`;
}
