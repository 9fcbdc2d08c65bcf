/**
 * Compiles operator tool matchers. Each entry is an anchored regular
 * expression, so a plain name ("bash") matches only that tool and
 * "read_.*" matches a family.
 */
export function compileToolMatcher(patterns: readonly string[] | undefined): (toolName: string) => boolean {
  if (patterns === undefined) return () => true;
  const regexes = patterns.map((pattern) => new RegExp(`^(?:${pattern})$`));
  return (toolName) => regexes.some((regex) => regex.test(toolName));
}
