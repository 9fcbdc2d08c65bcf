import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeamBus, type SeamListener } from '../../host/events/index.ts';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { Session, type SessionOptions } from '../../host/loop/index.ts';
import { type Script, ScriptedProvider } from '../../host/providers/scripted.ts';
import { builtinTools } from '../../host/tools/index.ts';

export interface TestWorkspace {
  readonly dir: string;
  readonly logPath: string;
  dispose(): void;
}

export function makeWorkspace(prefix = 'hookbox-test-'): TestWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, logPath: join(dir, 'session.jsonl'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface StartOptions extends Partial<Omit<SessionOptions, 'provider' | 'bus'>> {
  readonly hooks?: readonly SeamListener[];
  readonly script: Script;
}

/** A session over the real loop, real tools and a scripted model, in a workspace. */
export async function startSession(workspace: TestWorkspace, options: StartOptions): Promise<Session> {
  const bus = new SeamBus();
  for (const hook of options.hooks ?? []) bus.use(hook);
  return Session.start({
    cwd: workspace.dir,
    logPath: workspace.logPath,
    tools: builtinTools(),
    ...options,
    provider: new ScriptedProvider(options.script),
    bus,
  });
}

export function events(workspace: TestWorkspace): SessionEvent[] {
  return readSessionLog(workspace.logPath).events;
}

/**
 * A compact, exact view of the durable loop events (hook audit and session
 * headers left out): `type` plus the field that identifies each.
 */
export function sequence(all: readonly SessionEvent[]): string[] {
  const out: string[] = [];
  for (const event of all) {
    switch (event.type) {
      case 'turn/start':
        out.push(`turn/start ${event.turn}`);
        break;
      case 'turn/end':
        out.push(`turn/end ${event.turn} ${event.reason} steps=${event.steps}`);
        break;
      case 'user/message':
      case 'steering/message':
        out.push(`${event.type} ${event.turn}: ${event.content}`);
        break;
      case 'context/message':
        out.push(`context/message ${event.turn} (${event.source}): ${event.content}`);
        break;
      case 'prompt/blocked':
        out.push(`prompt/blocked ${event.turn}: ${event.reason}`);
        break;
      case 'assistant/message':
        out.push(`assistant/message ${event.turn}.${event.step}: ${event.content}${event.toolCalls.length > 0 ? ` [${event.toolCalls.map((c) => c.id).join(',')}]` : ''}`);
        break;
      case 'tool/call':
        out.push(`tool/call ${event.turn}.${event.step} ${event.toolCallId} ${event.toolName}`);
        break;
      case 'tool/result':
        out.push(`tool/result ${event.turn}.${event.step} ${event.toolCallId}${event.isError ? ' error' : ''}: ${event.content}`);
        break;
      default:
        break;
    }
  }
  return out;
}
