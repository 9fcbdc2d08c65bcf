/**
 * secret-redactor — post-tool: replaces secrets in every tool result with
 * `[REDACTED:<kind>]` and tells the model which kinds were redacted.
 */
import { accept, defineHook } from '../../pdk/index.ts';
import { redactionLogLine, redactToolResult } from './policy.ts';

export default defineHook({
  postTool(payload, ctx) {
    const redacted = redactToolResult(payload.toolName, payload.result.content);
    if (redacted === undefined) return;
    ctx.log.info(redactionLogLine(payload.toolName, payload.toolCallId, redacted));
    return accept({ content: redacted.content, additionalContext: redacted.additionalContext });
  },
});
