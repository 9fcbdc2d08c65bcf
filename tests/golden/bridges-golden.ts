/**
 * Renders the bridge golden tables from `bridges-cases.ts` through the real
 * mapper, the real fault policy (invokeListener) and the real composition
 * (SeamBus). `npm run golden:update` writes them; `bridges.spec.ts` compares.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ProtocolResult,
  TOOL_PROTOCOLS,
  type ToolProtocol,
  protocolInput,
  protocolOutcome,
} from '../../host/bridges/index.ts';
import { type Decided, type ListenerOutcome, SeamBus, type SeamCall, type SeamListener } from '../../host/events/index.ts';
import { invokeListener } from '../../host/events/invoke.ts';
import { resolveAsk } from '../../host/loop/permission.ts';
import { type DecisionOf, type PayloadOf, type SeamId, describeAsks, standingAsks } from '../../host/seams/index.ts';
import { COMPOSE_CASES, GOLDEN_NEXT, GOLDEN_SESSION, INPUT_CASES, OUTPUT_CASES } from './bridges-cases.ts';

export const GOLDEN_DIR = fileURLToPath(new URL('./bridges/', import.meta.url));

/**
 * A stand-in for a protocol hook (a shell command or a wasm export): it sees
 * the protocol's JSON input and answers with a fixed exit code / stdout /
 * stderr, mapped by the same code every real protocol hook goes through.
 */
export function cannedHook(
  protocol: ToolProtocol,
  name: string,
  seams: readonly SeamId[],
  respond: (input: Record<string, unknown>) => ProtocolResult,
): SeamListener {
  return {
    name,
    seams,
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      return protocolOutcome(protocol, call.seam, respond(protocolInput(protocol, call)));
    },
  };
}

/** The default payload each seam's output rows are decided on. */
const OUTPUT_PAYLOAD: { [S in SeamId]: PayloadOf<S> } = {
  'agent/session-start': { source: 'startup' },
  'agent/prompt-submit': { content: 'deploy with key sk-123', source: 'cli' },
  'tools/pre-execute': { toolCallId: 'call-1', toolName: 'bash', arguments: { command: 'rm -rf build' } },
  'tools/post-execute': { toolCallId: 'call-1', toolName: 'bash', arguments: { command: 'cat .env' }, result: { content: 'TOKEN=abc\nexit code: 0', isError: false } },
  'agent/turn-continuation': { continuations: 0 },
  'tools/permission-request': { toolCallId: 'call-1', toolName: 'bash', arguments: { command: 'npm install left-pad' } },
  'agent/subagent-start': { agentId: 'agent-1', agentType: 'Explore' },
  'agent/subagent-stop': { agentId: 'agent-1', agentType: 'Explore', continuations: 0, lastAssistantText: 'found 3 callers' },
  'agent/notification': { kind: 'permission', message: 'Claude needs your permission to use Bash', title: 'Permission' },
  'agent/pre-compact': { trigger: 'auto' },
  'agent/session-end': { reason: 'exit' },
};

async function renderProtocol(protocol: ToolProtocol): Promise<unknown> {
  const inputs = INPUT_CASES.map((c) => ({
    name: c.name,
    seam: c.seam,
    payload: c.payload,
    input: protocolInput(protocol, { seam: c.seam, payload: c.payload, next: GOLDEN_NEXT[c.seam], session: GOLDEN_SESSION }),
  }));

  const outputs = [];
  for (const c of OUTPUT_CASES) {
    const hook = cannedHook(protocol, 'golden', [c.seam], () => c.result);
    const { invocation } = await invokeListener(hook, c.seam, OUTPUT_PAYLOAD[c.seam], GOLDEN_NEXT[c.seam], GOLDEN_SESSION);
    outputs.push({
      name: c.name,
      event: c.seam,
      result: c.result,
      outcome: invocation.outcome,
      ...(invocation.decision !== undefined && { decision: invocation.decision }),
      ...(invocation.fault !== undefined && { fault: invocation.fault }),
      applied: invocation.applied,
    });
  }

  const composed = [];
  for (const c of COMPOSE_CASES) {
    const bus = new SeamBus();
    c.results.forEach((result, i) => bus.use(cannedHook(protocol, `hook-${i + 1}`, [c.seam], () => result)));
    const payload = OUTPUT_PAYLOAD[c.seam];
    const { decision, invocations, decided } = await bus.dispatch(c.seam, payload, GOLDEN_SESSION);
    let final: unknown = decision;
    if (c.seam === 'tools/pre-execute' && (decision as DecisionOf<'tools/pre-execute'>).action === 'ask') {
      const call = payload as PayloadOf<'tools/pre-execute'>;
      const asks = standingAsks(decision as DecisionOf<'tools/pre-execute'>, decided as readonly Decided<'tools/pre-execute'>[]);
      const reason = describeAsks(asks);
      final = await resolveAsk(
        undefined,
        { toolCall: { id: call.toolCallId, name: call.toolName, arguments: call.arguments }, asks, ...(reason !== undefined && { reason }) },
        1000,
      );
    }
    composed.push({
      name: c.name,
      seam: c.seam,
      ran: invocations.map((invocation) => ({ hook: invocation.hook, applied: invocation.applied })),
      decision,
      ...(final !== decision && { withoutPrompter: final }),
    });
  }
  return { protocol, session: GOLDEN_SESSION, inputs, outputs, composed };
}

/** Every golden file: absolute path → content. */
export async function renderBridgeGolden(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const protocol of TOOL_PROTOCOLS) {
    files[join(GOLDEN_DIR, `${protocol}.json`)] = `${JSON.stringify(await renderProtocol(protocol), null, 2)}\n`;
  }
  return files;
}
