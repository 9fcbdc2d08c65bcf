/**
 * A valid sample of every event in every agent's protocol table, built from
 * the agent's own event schema (its JSON Schema: every property, required or
 * not, with a plain value of its type) under the agent's doctor probe (which
 * holds the common fields and a tool the agent's table maps). Only the map
 * from agent to schemas is written here, keyed by every agent: a new agent
 * without it fails `tsc`; a new event gets its sample from its schema.
 */
import * as z from 'zod';
import type { AgentBridge, AgentEventMapping, AgentName } from '../../host/agents/index.ts';
import { CLAUDE_FORMAT_EVENT_SCHEMAS } from '../../host/agents/claude-format/protocol.ts';
import { CLINE_EVENT_SCHEMAS } from '../../host/agents/cline/protocol.ts';
import { CODEX_EVENT_SCHEMAS } from '../../host/agents/codex/protocol.ts';
import { COPILOT_EVENT_SCHEMAS } from '../../host/agents/copilot/protocol.ts';
import { GEMINI_EVENT_SCHEMAS } from '../../host/agents/gemini/protocol.ts';
import { OPENCODE_EVENT_SCHEMAS } from '../../host/agents/opencode/protocol.ts';
import { PI_EVENT_SCHEMAS } from '../../host/agents/pi/protocol.ts';

/** The schema of each event an agent's bridge reads (its format's, for the agents of a shared format). */
export const EVENT_SCHEMAS: { readonly [N in AgentName]: Readonly<Record<string, z.ZodType>> } = {
  'claude-code': CLAUDE_FORMAT_EVENT_SCHEMAS,
  qwen: CLAUDE_FORMAT_EVENT_SCHEMAS,
  factory: CLAUDE_FORMAT_EVENT_SCHEMAS,
  codex: CODEX_EVENT_SCHEMAS,
  gemini: GEMINI_EVENT_SCHEMAS,
  pi: PI_EVENT_SCHEMAS,
  opencode: OPENCODE_EVENT_SCHEMAS,
  kilo: OPENCODE_EVENT_SCHEMAS,
  copilot: COPILOT_EVENT_SCHEMAS,
  cline: CLINE_EVENT_SCHEMAS,
};

interface JsonSchema {
  readonly type?: string;
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly anyOf?: readonly JsonSchema[];
}

/** A plain value of a JSON Schema: every property of an object, one item where an array needs one; null for "anything". */
function sampleOf(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf !== undefined) return sampleOf(schema.anyOf[0]!);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]));
    case 'array':
      return (schema.minItems ?? 0) > 0 && schema.items !== undefined ? [sampleOf(schema.items)] : [];
    case 'string':
      return 'sample text';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** One sample event for a row of the agent's table, and the name the command line gives it (agents whose events carry none). */
export function sampleEvent(agent: AgentName, bridge: AgentBridge, row: AgentEventMapping, cwd: string): { input: Record<string, unknown>; named: string | undefined } {
  const schema = EVENT_SCHEMAS[agent][row.event];
  if (schema === undefined) throw new Error(`${agent}: no schema for its event ${row.event}`);
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema & { properties?: Record<string, JsonSchema> };
  const fields = sampleOf(json) as Record<string, unknown>;
  // A field the event's schema fixes (Cline's SessionShutdown `hookName`) is the event's own, not the probe's.
  const fixed = Object.fromEntries(Object.entries(json.properties ?? {}).filter(([, property]) => property.const !== undefined).map(([key, property]) => [key, property.const]));
  const input = { ...fields, ...bridge.probe.event(cwd), ...fixed };
  if (bridge.eventOnCommandLine === true) return { input, named: row.event };
  return { input: { ...input, hook_event_name: row.event }, named: undefined };
}
