import type { SeamBus } from '../events/index.ts';
import type { ToolCall } from '../log/index.ts';
import type { AttributedAsk, SessionInfo } from '../seams/index.ts';

export interface PermissionRequest {
  readonly toolCall: ToolCall;
  /**
   * Every hook that asked, in configured order, each with its own reason:
   * the host attributes them (a hook cannot name itself or speak for
   * another). Untrusted text: sanitise before showing.
   */
  readonly asks: readonly AttributedAsk[];
  /** The asks as one line (`describeAsks`): the single hook's reason, or each reason prefixed with its hook. */
  readonly reason?: string;
}

/**
 * Answers a pre-tool `ask` (the CLI asks the person; an ACP client asks its
 * user). Without a prompter, or when it does not answer in time, `ask`
 * degrades to `deny`.
 */
export interface PermissionPrompter {
  ask(request: PermissionRequest, signal: AbortSignal): Promise<'allow' | 'deny'>;
}

export type AskResolution =
  | { readonly action: 'allow'; readonly reason: string }
  | { readonly action: 'deny'; readonly reason: string };

/** Resolves an `ask` to allow or deny, never leaving it pending past `timeoutMs`. */
export async function resolveAsk(
  prompter: PermissionPrompter | undefined,
  request: PermissionRequest,
  timeoutMs: number,
): Promise<AskResolution> {
  const asked = request.reason === undefined ? 'a hook asked for permission' : request.reason;
  if (prompter === undefined) {
    return { action: 'deny', reason: `${asked} (ask degraded to deny: no permission prompter attached)` };
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const answer = await Promise.race([prompter.ask(request, controller.signal), timeout]);
    if (answer === 'timeout') {
      controller.abort();
      return { action: 'deny', reason: `${asked} (ask degraded to deny: no answer within ${timeoutMs} ms)` };
    }
    return answer === 'allow'
      ? { action: 'allow', reason: `${asked} (allowed by the user)` }
      : { action: 'deny', reason: `${asked} (denied by the user)` };
  } catch (error) {
    return { action: 'deny', reason: `${asked} (ask degraded to deny: prompter failed: ${(error as Error).message})` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves an `ask` where a person would be asked: the
 * `tools/permission-request` hooks first, which may answer for the person
 * (`allow`, `deny`) or leave the question to the prompter (`ask`, the
 * default). Fired only when a prompter is attached: without one nobody is
 * asked, and the ask degrades to deny as before (a hook cannot turn that
 * into an allow).
 */
export async function resolvePermission(
  bus: SeamBus,
  prompter: PermissionPrompter | undefined,
  request: PermissionRequest,
  session: SessionInfo,
  timeoutMs: number,
): Promise<AskResolution> {
  if (prompter === undefined) return resolveAsk(prompter, request, timeoutMs);
  const { toolCall, reason } = request;
  const { decision } = await bus.dispatch(
    'tools/permission-request',
    { toolCallId: toolCall.id, toolName: toolCall.name, arguments: toolCall.arguments, ...(reason !== undefined && { reason }) },
    session,
  );
  const asked = reason ?? 'a hook asked for permission';
  if (decision.action === 'allow') {
    return { action: 'allow', reason: `${asked} (allowed by a permission-request hook${decision.reason === undefined ? '' : `: ${decision.reason}`})` };
  }
  if (decision.action === 'deny') return { action: 'deny', reason: `${asked} (denied by a permission-request hook: ${decision.reason})` };
  return resolveAsk(prompter, request, timeoutMs);
}
