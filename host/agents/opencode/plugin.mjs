// hookbox's plugin for OpenCode (`hookbox/opencode`) and for the agents that
// kept its plugin API (Kilo CLI: `hookbox/kilo`, host/agents/kilo/plugin.mjs):
// `hookbox setup opencode` writes `.opencode/plugin/hookbox.js`, which hands
// this factory its options. Each OpenCode hook hookbox has a seam for is
// asked of `hookbox serve` through the plugin client (its own deadline:
// OpenCode gives a plugin none; every fault answered closed) and the answer
// applied in OpenCode's terms:
//   tool.execute.before → throw the reason          (deny: the model reads it as the tool's error)
//                       → output.args replaced      (a rewrite: the call runs with the new input)
//   tool.execute.after  → output.output replaced    (a replaced or withheld result)
//   chat.message        → throw / the text replaced (a blocked or rewritten prompt)
//   session.created     → context added to the session's first prompt
//   session.idle        → client.session.prompt(reason) (a continuation)
import { pluginClient, printable, replaceInput, sessionIdOf } from '../plugin-client.mjs';

/** The text parts of a prompt the person wrote (OpenCode's own synthetic parts left out). */
function promptParts(parts) {
  return Array.isArray(parts) ? parts.filter((part) => part?.type === 'text' && typeof part.text === 'string' && part.synthetic !== true) : [];
}

/**
 * The plugin of an agent with OpenCode's plugin API, asking `hookbox serve`
 * as `agent` (its bridge reads that agent's tools), for the options of its
 * plugin file (`from`: that file's `import.meta.url`).
 */
export function openCodeFormatPlugin(agent, options, from) {
  const client = pluginClient(agent, options, from);
  return async function hookbox(input) {
    const cwd = typeof input?.directory === 'string' ? input.directory : process.cwd();
    const opencode = input?.client;
    /** Arguments of calls in flight by call id (`tool.execute.after` does not carry them in every version). */
    const argsByCall = new Map();
    /** Session-start context per session, added to its first prompt. */
    const pending = new Map();
    /** Sessions this plugin sent a continuation to: their next prompt is it, their next idle says so. */
    const continuing = new Map();
    const fallbackSession = `${agent}-${process.pid}`;
    const common = (name, sessionID) => ({ hook_event_name: name, session_id: sessionIdOf(sessionID, fallbackSession), cwd });

    return {
      event: async ({ event }) => {
        if (event?.type === 'session.created') {
          const id = event.properties?.info?.id;
          const answer = await client.decide(common('session.created', id), 'let-through');
          if (answer.context !== undefined) pending.set(id, answer.context);
        } else if (event?.type === 'session.idle') {
          const id = event.properties?.sessionID;
          const continued = continuing.has(id);
          continuing.delete(id);
          const answer = await client.decide({ ...common('session.idle', id), continued }, 'let-through');
          if (answer.continue === undefined || opencode?.session?.prompt === undefined) return;
          const text = printable(answer.continue);
          continuing.set(id, text);
          try {
            await opencode.session.prompt({ path: { id }, body: { parts: [{ type: 'text', text }] } });
          } catch (error) {
            process.stderr.write(`hookbox: the continuation could not be sent: ${printable(error?.message ?? error)}\n`);
          }
        }
      },

      'chat.message': async (hookInput, output) => {
        const parts = promptParts(output?.parts);
        const text = parts.map((part) => part.text).join('\n');
        if (continuing.get(hookInput?.sessionID) === text) return;
        const answer = await client.decide({ ...common('chat.message', hookInput?.sessionID), text }, 'prompt');
        // OpenCode has no way to drop a prompt but an error: the run reports it as "UnknownError".
        if (answer.block !== undefined) throw new Error(`hookbox blocked this prompt: ${answer.block}`);
        const start = pending.get(hookInput?.sessionID);
        pending.delete(hookInput?.sessionID);
        const context = [answer.context, start].filter((item) => item !== undefined);
        if (parts.length === 0 || (answer.text === undefined && context.length === 0)) return;
        parts[0].text = [answer.text ?? parts[0].text, ...context].join('\n\n');
        if (answer.text !== undefined) for (const part of parts.slice(1)) part.text = '';
      },

      'tool.execute.before': async (hookInput, output) => {
        const args = typeof output?.args === 'object' && output.args !== null ? output.args : {};
        argsByCall.set(hookInput?.callID, args);
        const answer = await client.decide(
          { ...common('tool.execute.before', hookInput?.sessionID), tool_name: String(hookInput?.tool), tool_call_id: String(hookInput?.callID), input: args },
          'preTool',
        );
        // Only a decided "no objection" lets the call run; the thrown text is what the model reads.
        if (answer.deny !== undefined) {
          argsByCall.delete(hookInput?.callID);
          throw new Error(answer.deny);
        }
        if (answer.args !== undefined) {
          // The agent runs the call with output.args: a rewrite is made there, or the call is denied, never run unrewritten.
          if (args !== output?.args) throw new Error('hookbox: a hook rewrote this call and the tool input could not be replaced, so it was not run');
          replaceInput(args, answer.args);
        }
      },

      'tool.execute.after': async (hookInput, output) => {
        const args = hookInput?.args ?? argsByCall.get(hookInput?.callID) ?? {};
        argsByCall.delete(hookInput?.callID);
        const exit = output?.metadata?.exit;
        const answer = await client.decide(
          {
            ...common('tool.execute.after', hookInput?.sessionID),
            tool_name: String(hookInput?.tool),
            tool_call_id: String(hookInput?.callID),
            input: typeof args === 'object' && args !== null ? args : {},
            output: typeof output?.output === 'string' ? output.output : JSON.stringify(output?.output ?? ''),
            ...(Number.isInteger(exit) && { exit_code: exit }),
          },
          'postTool',
        );
        if (output === undefined || output === null) return;
        if (answer.content !== undefined) output.output = answer.context === undefined ? answer.content : `${answer.content}\n\n${answer.context}`;
        else if (answer.context !== undefined) output.output = `${String(output.output ?? '')}\n\n${answer.context}`;
      },
    };
  };
}

/** The OpenCode plugin, for the options of `.opencode/plugin/hookbox.js` (`from`: that file's `import.meta.url`). */
export function hookboxOpenCodePlugin(options, from) {
  return openCodeFormatPlugin('opencode', options, from);
}
