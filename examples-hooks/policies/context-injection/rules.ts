/**
 * context-injection's pure policy: fixed context the operator wants in front
 * of the model — at session start (for the start sources chosen), with
 * every prompt, and to each subagent the agent starts (for the subagent types
 * chosen). The text goes in as given, after a `context-injection: <rule>:`
 * label that says where it came from (and what `hookbox test` counts).
 */
import { stringList } from '../shared/config.ts';

export const RULES = ['session-start', 'prompt', 'subagent-start', 'config-error'] as const;

/** The config as the host validated it (defaults filled in): `host/catalog/context-injection.ts`. */
export interface InjectionConfig {
  readonly sessionStart?: string;
  readonly sources: readonly string[];
  readonly prompt?: string;
  readonly subagentStart?: string;
  /** The subagent types `subagentStart` is given to; unset: every one. */
  readonly subagentTypes?: readonly string[];
}

export function parseConfig(value: unknown): InjectionConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const sources = stringList(config.sources);
  if (sources === undefined) return { error: 'sources: expected an array of session-start sources' };
  for (const key of ['sessionStart', 'prompt', 'subagentStart'] as const) if (config[key] !== undefined && typeof config[key] !== 'string') return { error: `${key}: expected a string` };
  const subagentTypes = config.subagentTypes === undefined ? undefined : stringList(config.subagentTypes);
  if (config.subagentTypes !== undefined && subagentTypes === undefined) return { error: 'subagentTypes: expected an array of subagent types' };
  return {
    sources,
    ...(typeof config.sessionStart === 'string' && { sessionStart: config.sessionStart }),
    ...(typeof config.prompt === 'string' && { prompt: config.prompt }),
    ...(typeof config.subagentStart === 'string' && { subagentStart: config.subagentStart }),
    ...(subagentTypes !== undefined && { subagentTypes }),
  };
}

/**
 * The session-start rule: `text` when the session started for one of
 * `sources`, else `undefined`. The session-context example hook is built on
 * it (its team rules and resume note are two such injections).
 */
export function injectedAtStart(source: string, text: string | undefined, sources: readonly string[]): string | undefined {
  return text === undefined || !sources.includes(source) ? undefined : text;
}

/** The context for a session that started for `source`, or `undefined`. */
export function sessionContext(source: string, config: InjectionConfig): string | undefined {
  const text = injectedAtStart(source, config.sessionStart, config.sources);
  return text === undefined ? undefined : `context-injection: session-start: ${text}`;
}

/** The context for a prompt, or `undefined`. */
export function promptContext(config: InjectionConfig): string | undefined {
  return config.prompt === undefined ? undefined : `context-injection: prompt: ${config.prompt}`;
}

/**
 * The context for a subagent of `agentType` (the agent's name for it:
 * untrusted text, compared exactly, never echoed), or `undefined`.
 */
export function subagentContext(agentType: string, config: InjectionConfig): string | undefined {
  if (config.subagentStart === undefined) return undefined;
  if (config.subagentTypes !== undefined && !config.subagentTypes.includes(agentType)) return undefined;
  return `context-injection: subagent-start: ${config.subagentStart}`;
}
