import { describe, expect, it } from 'vitest';
import { convertSourceMatcher, convertToolMatcher } from '../../host/bridges/index.ts';
import { compileToolMatcher } from '../../host/events/index.ts';

// What bridges-import.spec.ts leaves open: whole results (tools and notes),
// whitespace, duplicates and empty names in a list, the Codex vocabulary, the
// note texts, and which tools the written patterns select once compiled.

/** The hookbox tools a converted matcher selects, out of built-ins and two others. */
function selected(protocol: 'claude-code' | 'codex', matcher: string): string[] {
  const matches = compileToolMatcher(convertToolMatcher(protocol, matcher).tools);
  return ['bash', 'read_file', 'write_file', 'list_dir', 'mcp__db__query', 'WebFetch', 'Read', 'Bash'].filter((tool) => matches(tool));
}

describe('convertToolMatcher: names', () => {
  it('"*" and blank matchers match every tool, whatever the whitespace around them', () => {
    for (const matcher of [' * ', '   ', '\t*\n']) expect(convertToolMatcher('claude-code', matcher)).toStrictEqual({ notes: [] });
  });

  it('a list is trimmed, split at "|" and ",", its empty names dropped and its tools listed once, in first-seen order', () => {
    expect(convertToolMatcher('claude-code', '  Bash  ')).toStrictEqual({ tools: ['bash'], notes: [] });
    expect(convertToolMatcher('claude-code', 'LS ,Bash|| Read,')).toStrictEqual({ tools: ['list_dir', 'bash', 'read_file'], notes: [] });
    expect(convertToolMatcher('claude-code', 'Write|Bash|Edit|Bash')).toStrictEqual({ tools: ['write_file', 'bash'], notes: [] });
  });

  it('names no built-in tool has are kept as exact names, listed in one note', () => {
    expect(convertToolMatcher('claude-code', 'WebFetch|Bash|mcp__db-admin__drop')).toStrictEqual({
      tools: ['WebFetch', 'bash', 'mcp__db-admin__drop'],
      notes: ['WebFetch, mcp__db-admin__drop: no built-in hookbox tool has this name; kept for a tool that does'],
    });
    expect(selected('claude-code', 'WebFetch|Bash')).toStrictEqual(['bash', 'WebFetch']);
  });

  it("Codex names are read in Codex's vocabulary: its shell and patch names map, Claude Code's Read does not", () => {
    expect(convertToolMatcher('codex', 'exec_command, apply_patch|local_shell|Edit')).toStrictEqual({ tools: ['bash', 'write_file'], notes: [] });
    expect(convertToolMatcher('codex', 'Read|LS')).toStrictEqual({
      tools: ['Read', 'LS'],
      notes: ['Read, LS: no built-in hookbox tool has this name; kept for a tool that does'],
    });
  });
});

describe('convertToolMatcher: regular expressions', () => {
  const exclusion = '(?!(?:bash|read_file|write_file|list_dir)$)';

  it('lists the built-ins it matches by their Claude Code names, then one pattern for every other tool', () => {
    expect(convertToolMatcher('claude-code', ' ^(Read|LS)$ ')).toStrictEqual({
      tools: ['read_file', 'list_dir', `${exclusion}.*(?:^(Read|LS)$).*`],
      notes: ['regex matcher: built-in tools it matches by their Claude Code names: read_file, list_dir; other tools are matched by the same regex'],
    });
    expect(convertToolMatcher('claude-code', 'mcp__.*')).toStrictEqual({
      tools: [`${exclusion}.*(?:mcp__.*).*`],
      notes: ['regex matcher: built-in tools it matches by their Claude Code names: none; other tools are matched by the same regex'],
    });
  });

  it('a built-in matches when any of its names does (MultiEdit selects write_file)', () => {
    expect(convertToolMatcher('claude-code', 'Multi.*').tools?.slice(0, -1)).toStrictEqual(['write_file']);
    expect(convertToolMatcher('codex', 'container\\.exec').tools?.slice(0, -1)).toStrictEqual(['bash']);
  });

  it("reads Codex matchers in Codex's vocabulary and says so", () => {
    expect(convertToolMatcher('codex', '^apply_.*')).toStrictEqual({
      tools: ['write_file', `${exclusion}.*(?:^apply_.*).*`],
      notes: ['regex matcher: built-in tools it matches by their Codex names: write_file; other tools are matched by the same regex'],
    });
  });

  it('the pattern for other tools is unanchored and never selects a built-in by its hookbox name', () => {
    // "_" is in every hookbox name with one but in no Claude Code name of a built-in.
    expect(selected('claude-code', '_.')).toStrictEqual(['mcp__db__query']);
    expect(selected('claude-code', 'Fetch$')).toStrictEqual(['WebFetch']);
    expect(selected('claude-code', 'Bash|.*query')).toStrictEqual(['bash', 'mcp__db__query', 'Bash']);
  });

  it('an invalid regular expression is a SyntaxError with its message', () => {
    expect(() => convertToolMatcher('codex', '[z-a]')).toThrow(new SyntaxError('Invalid regular expression: /[z-a]/: Range out of order in character class'));
  });
});

describe('convertSourceMatcher', () => {
  it('"*" and blank matchers select every source', () => {
    for (const matcher of ['', ' * ', '  ']) expect(convertSourceMatcher(matcher)).toStrictEqual({ notes: [] });
  });

  it("a list selects the sources it names, in the seam's order, once each", () => {
    expect(convertSourceMatcher(' compact, startup|compact| ')).toStrictEqual({ sources: ['startup', 'compact'], notes: [] });
    expect(convertSourceMatcher('clear')).toStrictEqual({ sources: ['clear'], notes: [] });
  });

  it('names that are not sources are listed in one note, beside the sources that are', () => {
    expect(convertSourceMatcher('resume|boot, wake')).toStrictEqual({
      sources: ['resume'],
      notes: ['boot, wake: not a session-start source (startup, resume, clear, compact)'],
    });
    expect(convertSourceMatcher('Startup')).toStrictEqual({
      sources: [],
      notes: ['Startup: not a session-start source (startup, resume, clear, compact)'],
    });
  });

  it('a regex selects the sources it matches, unanchored, without a note', () => {
    expect(convertSourceMatcher('^(resume|clear)$')).toStrictEqual({ sources: ['resume', 'clear'], notes: [] });
    expect(convertSourceMatcher('ar|^co')).toStrictEqual({ sources: ['startup', 'clear', 'compact'], notes: [] });
    expect(convertSourceMatcher('^z.*')).toStrictEqual({ sources: [], notes: [] });
    expect(() => convertSourceMatcher('(resume')).toThrow(new SyntaxError('Invalid regular expression: /(resume/: Unterminated group'));
  });
});
