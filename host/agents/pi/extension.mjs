// hookbox's extension for pi (`hookbox/pi`): `hookbox setup pi` writes
// `.pi/extensions/hookbox.ts`, which hands this factory its options. Each pi
// event hookbox has a seam for is asked of `hookbox serve` through the plugin
// client (its own deadline; every fault answered closed) and the answer is
// applied in pi's terms:
//   tool_call   → {block: true, reason}            (deny)
//               → event.input replaced in place     (a rewrite: pi runs the call with the new input)
//   tool_result → {content, isError}               (a replaced or withheld result)
//   input       → {action: "handled" | "transform"} (a blocked or rewritten prompt)
//   session_start / input context → one message before the prompt reaches the model
//   agent_end   → pi.sendUserMessage(reason)        (a continuation)
//   session_shutdown → heard only                   (the session ends: `pi -p` sends reason "quit")
//   session_before_compact → {cancel: true}         (a blocked compaction)
import { randomUUID } from 'node:crypto';
import { pluginClient, printable, replaceInput, sessionIdOf } from '../plugin-client.mjs';

/** The text of pi's content blocks (images named, not passed). */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
}

/** The last assistant message's text of an `agent_end`. */
function lastAssistantText(messages) {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === 'assistant') return textOf(messages[i].content);
  return undefined;
}

/** The pi extension, for the options of `.pi/extensions/hookbox.ts` (`from`: that file's `import.meta.url`). */
export function hookboxPiExtension(options, from) {
  const client = pluginClient('pi', options, from);
  const ownSession = `pi-${randomUUID()}`;
  return function hookbox(pi) {
    /** Context from session start and prompts, given to the model as one message before the next prompt. */
    const pending = [];
    /** The continuation this extension sent last: its `input` is not a new prompt, and the next `agent_end` says it was continued. */
    let continuation;
    let continued = false;

    const common = (name, ctx) => ({
      hook_event_name: name,
      session_id: sessionIdOf(ctx?.sessionManager?.getSessionId?.(), ownSession),
      cwd: typeof ctx?.cwd === 'string' ? ctx.cwd : process.cwd(),
    });
    const tell = (ctx, text) => {
      process.stderr.write(`${text}\n`);
      if (ctx?.hasUI === true) ctx.ui?.notify?.(text, 'warning');
    };

    pi.on('session_start', async (event, ctx) => {
      const answer = await client.decide({ ...common('session_start', ctx), ...(typeof event?.reason === 'string' && { reason: event.reason }) }, 'let-through');
      if (answer.context !== undefined) pending.push(answer.context);
    });

    pi.on('input', async (event, ctx) => {
      if (event.source === 'extension' && continuation !== undefined && textOf(event.text) === continuation) {
        continuation = undefined;
        return { action: 'continue' };
      }
      continued = false;
      const answer = await client.decide({ ...common('input', ctx), text: textOf(event.text), source: String(event.source ?? 'interactive') }, 'prompt');
      if (answer.block !== undefined) {
        tell(ctx, `hookbox blocked this prompt: ${answer.block}`);
        return { action: 'handled' };
      }
      if (answer.context !== undefined) pending.push(answer.context);
      if (answer.text !== undefined) return { action: 'transform', text: answer.text };
      return { action: 'continue' };
    });

    pi.on('before_agent_start', async () => {
      if (pending.length === 0) return undefined;
      const content = pending.splice(0).join('\n\n');
      return { message: { customType: 'hookbox', content, display: false } };
    });

    pi.on('tool_call', async (event, ctx) => {
      const input = typeof event.input === 'object' && event.input !== null ? event.input : {};
      const answer = await client.decide({ ...common('tool_call', ctx), tool_name: String(event.toolName), tool_call_id: String(event.toolCallId), input }, 'preTool');
      // Only a decided "no objection" lets the call run; a deny's reason is what the model reads.
      if (answer.deny !== undefined) return { block: true, reason: answer.deny };
      if (answer.args !== undefined) {
        // pi reads the input it passed in: a rewrite is made in that object, or the call is blocked, never run unrewritten.
        if (input !== event.input) return { block: true, reason: 'hookbox: a hook rewrote this call and the tool input could not be replaced, so it was not run' };
        replaceInput(input, answer.args);
      }
      return undefined;
    });

    pi.on('tool_result', async (event, ctx) => {
      const input = typeof event.input === 'object' && event.input !== null ? event.input : {};
      const content = Array.isArray(event.content) ? event.content : [];
      const answer = await client.decide(
        { ...common('tool_result', ctx), tool_name: String(event.toolName), tool_call_id: String(event.toolCallId), input, content, is_error: event.isError === true },
        'postTool',
      );
      if (answer.content !== undefined) {
        const text = answer.context === undefined ? answer.content : `${answer.content}\n\n${answer.context}`;
        return { content: [{ type: 'text', text }], isError: answer.isError ?? event.isError === true };
      }
      if (answer.context !== undefined) return { content: [...content, { type: 'text', text: answer.context }] };
      return undefined;
    });

    // The session ends (quit, reload, a new or resumed session): hooks hear it; nothing to answer.
    pi.on('session_shutdown', async (event, ctx) => {
      await client.decide({ ...common('session_shutdown', ctx), ...(typeof event?.reason === 'string' && { reason: event.reason }) }, 'let-through');
    });

    // A compaction (pi's own, its context near full, or a person's /compact): a block cancels it.
    pi.on('session_before_compact', async (event, ctx) => {
      const instructions = typeof event?.customInstructions === 'string' ? { custom_instructions: event.customInstructions } : {};
      const answer = await client.decide({ ...common('session_before_compact', ctx), ...instructions }, 'compact');
      if (answer.block === undefined) return undefined;
      // pi may have made this ctx stale while the hooks decided (its UI getter then throws): the cancel must still be returned.
      try {
        tell(ctx, `hookbox blocked this compaction: ${answer.block}`);
      } catch {
        // the notice is on stderr already
      }
      return { cancel: true };
    });

    pi.on('agent_end', async (event, ctx) => {
      const last = lastAssistantText(event?.messages);
      const answer = await client.decide({ ...common('agent_end', ctx), ...(last !== undefined && { last_assistant_text: last }), continued }, 'let-through');
      if (answer.continue === undefined) return;
      continuation = printable(answer.continue);
      continued = true;
      // Idle (the run has ended): a new prompt; still streaming: queued as a follow-up. pi reports its own errors.
      try {
        const sent = ctx?.isIdle?.() === false ? pi.sendUserMessage(continuation, { deliverAs: 'followUp' }) : pi.sendUserMessage(continuation);
        void Promise.resolve(sent).catch((error) => tell(ctx, `hookbox: the continuation could not be sent: ${printable(error?.message ?? error)}`));
      } catch (error) {
        tell(ctx, `hookbox: the continuation could not be sent: ${printable(error?.message ?? error)}`);
      }
    });
  };
}
