/**
 * secrets — a catalog policy (`"policy": "secrets"`): redacts secrets from
 * tool output, blocks prompts holding one, refuses writing one into a file.
 * The host validated the config and passes it as JSON in the `policy` key.
 */
import { accept, allow, block, defineHook, deny } from '../../../pdk/index.ts';
import { judgeCall, judgePrompt, parseConfig, redactOutput } from './rules.ts';

let cachedRaw: string | undefined;
let cached: ReturnType<typeof parseConfig> | undefined;

function config(raw: string | undefined): ReturnType<typeof parseConfig> {
  if (cached === undefined || raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parseConfig(raw);
  }
  return cached;
}

export default defineHook({
  description: 'redacts secrets from tool output, blocks prompts holding one, refuses writing one into a file or a shell command',
  config: { policy: 'the policy config as JSON ({"redactOutput", "blockPrompts", "refuseWrites"}), validated by hookbox' },
  preTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return deny(`secrets: config-error: ${settings.error}`);
    if (!settings.refuseWrites) return;
    const reason = judgeCall(payload.toolName, payload.arguments);
    return reason === undefined ? allow() : deny(reason);
  },
  postTool(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return block(`secrets: config-error: ${settings.error}`);
    if (!settings.redactOutput) return;
    const redacted = redactOutput(payload.toolName, payload.result.content);
    if (redacted === undefined) return;
    ctx.log.info(redacted.note);
    return accept({ content: redacted.content, additionalContext: redacted.note });
  },
  promptSubmit(payload, ctx) {
    const settings = config(ctx.config.get('policy'));
    if ('error' in settings) return block(`secrets: config-error: ${settings.error}`);
    if (!settings.blockPrompts) return;
    const reason = judgePrompt(payload.content);
    return reason === undefined ? allow() : block(reason);
  },
});
