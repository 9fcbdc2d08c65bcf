import pc from 'picocolors';
import type { SessionEvent } from '../log/index.ts';

const MAX_SHOWN = 400;

function clip(text: string, max = MAX_SHOWN): string {
  const oneLine = text.replace(/\s+$/u, '');
  return oneLine.length > max ? `${oneLine.slice(0, max)}… (${oneLine.length - max} more chars)` : oneLine;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? line : `${prefix}${line}`))
    .join('\n');
}

function describeDecision(applied: unknown): { action: string; reason?: string } {
  if (applied === null || typeof applied !== 'object') return { action: 'no opinion' };
  const decision = applied as { action?: string; reason?: string; additionalContext?: string; content?: string };
  const action = decision.action ?? (decision.additionalContext !== undefined ? 'context' : 'ok');
  const reason = decision.reason ?? (decision.content !== undefined ? 'rewrote content' : decision.additionalContext);
  return reason === undefined ? { action } : { action, reason };
}

function colourAction(action: string): string {
  if (action === 'deny' || action === 'block') return pc.red(pc.bold(action));
  if (action === 'ask') return pc.yellow(pc.bold(action));
  if (action === 'continue') return pc.magenta(pc.bold(action));
  if (action === 'no opinion') return pc.dim(action);
  return pc.green(action);
}

/** Renders one session event as transcript lines for a person (empty string = nothing to show). */
export function renderEvent(event: SessionEvent): string {
  switch (event.type) {
    case 'session/start':
      return pc.dim(`session ${event.sessionId} (${event.source}) in ${event.cwd}`);
    case 'turn/start':
      return `\n${pc.bold(pc.cyan(`━━ turn ${event.turn} ━━`))}`;
    case 'user/message':
      return `${pc.bold('› user')}  ${clip(event.content)}${event.originalContent !== undefined ? pc.dim('  (rewritten by a hook)') : ''}`;
    case 'prompt/blocked':
      return `${pc.red('› prompt blocked')}  ${pc.red(event.reason)}`;
    case 'context/message':
      return pc.blue(`  ⓘ context (${event.source})  ${indent(clip(event.content), '      ')}`);
    case 'steering/message':
      return pc.magenta(`  ↻ steering  ${clip(event.content)}`);
    case 'assistant/message':
      return event.content === '' ? '' : `${pc.bold('  ◆ assistant')}  ${clip(event.content)}`;
    case 'tool/call':
      return `  ${pc.bold('⚙ ' + event.toolName)} ${pc.dim(clip(JSON.stringify(event.arguments), 200))}`;
    case 'tool/result': {
      const marker = event.isError ? pc.red('⇐ error') : pc.green('⇐ result');
      const effect = event.hookEffect !== undefined ? pc.yellow(` [${event.hookEffect} by hook]`) : '';
      return `    ${marker}${effect}  ${indent(clip(event.content), '             ')}`;
    }
    case 'hook/invoke': {
      const { action, reason } = describeDecision(event.applied);
      const fault = event.fault !== undefined ? pc.red(` fault ${event.fault.kind} →`) : '';
      // A shell hook runs with the user's rights: say so on every line it decides.
      const unsandboxed = event.sandbox === 'shell' ? ` ${pc.yellow('[unsandboxed]')}` : '';
      const head = `    ${pc.dim('hook')} ${pc.bold(event.hook)}${unsandboxed} ${pc.dim(event.seam)}${fault} ${colourAction(action)}`;
      const why = reason !== undefined ? ` ${pc.dim('—')} ${clip(reason, 160)}` : '';
      return `${head}${why} ${pc.dim(`${event.durationUs} µs`)}`;
    }
    case 'hook/log':
      return pc.dim(`    log ${event.hook} [${event.level}] ${clip(event.message, 200)}`);
    case 'turn/end': {
      const colour = event.reason === 'completed' ? pc.green : event.reason === 'rejected' || event.reason === 'cancelled' ? pc.yellow : pc.red;
      const message = event.message !== undefined ? ` — ${event.message}` : '';
      return colour(`■ turn ${event.turn} ${event.reason} after ${event.steps} step(s)${message}`);
    }
  }
}
