import type { SessionStartSource } from '../seams/index.ts';
import { PROTOCOL_LABEL, SESSION_START_SOURCES, type ToolProtocol } from './protocol.ts';
import { BUILTIN_TOOLS, fromProtocolToolName, protocolToolNames } from '../agents/tool-names.ts';

/** A matcher converted to hookbox's anchored tool matchers, with what a person should know about it. */
export interface ConvertedToolMatcher {
  /** Absent = every tool. */
  readonly tools?: string[];
  readonly notes: string[];
}

/** A matcher that is only names: `Bash`, `Edit|Write`, `Write, Edit`. Anything else is a regular expression. */
const NAME_LIST = /^[\w\s,|-]+$/;
const MATCH_ALL = new Set(['', '*']);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Converts a Claude Code / Codex tool `matcher` (tool names in that tool's
 * vocabulary; absent, `""` and `*` match everything; a list of names is an
 * exact match; anything else is an unanchored regular expression) into
 * hookbox `tools`: anchored regular expressions over hookbox tool names.
 *
 * A name or a regex is resolved against the built-in tools by every name the
 * protocol has for them (`Bash` → `bash`; `Edit`, `Write`, Codex's
 * `apply_patch` → `write_file`: the table in `tool-names.ts`); a regex adds
 * one pattern that keeps applying it, unanchored, to every other tool (whose
 * name is the same in both vocabularies).
 *
 * @throws SyntaxError when the matcher is not a valid regular expression
 */
export function convertToolMatcher(protocol: ToolProtocol, matcher: string | undefined): ConvertedToolMatcher {
  const trimmed = matcher?.trim();
  if (trimmed === undefined || MATCH_ALL.has(trimmed)) return { notes: [] };
  const notes: string[] = [];
  if (NAME_LIST.test(trimmed)) {
    const names = trimmed.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== '');
    const tools = names.map((name) => fromProtocolToolName(protocol, name));
    const foreign = tools.filter((name) => !(BUILTIN_TOOLS as readonly string[]).includes(name));
    if (foreign.length > 0) notes.push(`${foreign.join(', ')}: no built-in hookbox tool has this name; kept for a tool that does`);
    return { tools: [...new Set(tools)].map(escapeRegex), notes };
  }
  const regex = new RegExp(trimmed);
  // A built-in tool matches when the regex matches any of its names (Codex's `apply_patch`, Claude Code's `Edit`…).
  const builtins = BUILTIN_TOOLS.filter((name) => protocolToolNames(protocol, name).some((theirs) => regex.test(theirs)));
  const exclusion = BUILTIN_TOOLS.map(escapeRegex).join('|');
  notes.push(
    `regex matcher: built-in tools it matches by their ${PROTOCOL_LABEL[protocol]} names: ${builtins.length === 0 ? 'none' : builtins.join(', ')}; other tools are matched by the same regex`,
  );
  return { tools: [...builtins, `(?!(?:${exclusion})$).*(?:${trimmed}).*`], notes };
}

/**
 * Converts a SessionStart `matcher` (which selects the source: `startup`,
 * `resume`, `clear`, `compact`) into the sources a shell hook runs for;
 * absent = every source.
 *
 * @throws SyntaxError when the matcher is not a valid regular expression
 */
export function convertSourceMatcher(matcher: string | undefined): { sources?: SessionStartSource[]; notes: string[] } {
  const trimmed = matcher?.trim();
  if (trimmed === undefined || MATCH_ALL.has(trimmed)) return { notes: [] };
  const all: readonly SessionStartSource[] = SESSION_START_SOURCES;
  let sources: SessionStartSource[];
  if (NAME_LIST.test(trimmed)) {
    const names = trimmed.split(/[|,]/).map((name) => name.trim()).filter((name) => name !== '');
    sources = all.filter((source) => names.includes(source));
    const unknown = names.filter((name) => !(all as readonly string[]).includes(name));
    const notes = unknown.length > 0 ? [`${unknown.join(', ')}: not a session-start source (${all.join(', ')})`] : [];
    return sources.length === 0 ? { sources: [], notes } : { sources, notes };
  }
  const regex = new RegExp(trimmed);
  sources = all.filter((source) => regex.test(source));
  return { sources, notes: [] };
}
