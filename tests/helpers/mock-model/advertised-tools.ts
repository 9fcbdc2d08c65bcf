/**
 * The tool names an agent advertised to the model in one request body, as
 * each API carries them: Anthropic Messages `tools[].name`; OpenAI Responses
 * `tools[]` (`function` / `custom` tools by `name`, built-ins such as
 * `local_shell` or `web_search` by `type`); Gemini `tools[].functionDeclarations[].name`;
 * OpenAI chat completions `tools[].function.name`.
 * Sorted, no duplicates.
 */
export function advertisedToolNames(api: 'anthropic' | 'responses' | 'gemini' | 'chat', body: unknown): string[] {
  const tools = (body as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const tool of tools as Record<string, unknown>[]) {
    if (api === 'gemini') {
      const declarations = Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as Record<string, unknown>[]) : [];
      for (const declaration of declarations) if (typeof declaration.name === 'string') names.push(declaration.name);
      continue;
    }
    if (api === 'chat') {
      const fn = tool.function as { name?: unknown } | undefined;
      if (typeof fn?.name === 'string') names.push(fn.name);
      continue;
    }
    if (typeof tool.name === 'string') names.push(tool.name);
    else if (api === 'responses' && typeof tool.type === 'string') names.push(tool.type);
  }
  return [...new Set(names)].sort();
}

/**
 * The tools Claude Code defers (names only, loaded on demand through its
 * `ToolSearch` tool): listed in a system reminder of its first request,
 * one name a line after "The following deferred tools are now available via ToolSearch".
 */
export function claudeDeferredToolNames(body: unknown): string[] {
  const text = JSON.stringify(body);
  const start = text.indexOf('deferred tools are now available via ToolSearch');
  if (start === -1) return [];
  const block = JSON.parse(`"${text.slice(start, text.indexOf('</system-reminder>', start))}"`) as string;
  return block.split('\n').slice(1).map((line) => line.trim()).filter((line) => /^[A-Za-z][\w-]*$/.test(line)).sort();
}
