import pc from 'picocolors';
import type { SessionEvent } from '../log/index.ts';
import { printable, printableLines } from '../text/index.ts';

/**
 * Everything shown here that did not come from the host itself — hook
 * reasons, contexts and log lines, but also prompts, model text and tool
 * output, which a hook may have rewritten or a tool read from a hostile
 * file — goes through the sanitiser (`host/text`): escape sequences and
 * control characters come out escaped, so the only ESC on the terminal is
 * picocolors' own. The session log keeps the raw text.
 */
const MAX_SHOWN = 400;
const MAX_LINES = 20;

/** One line of untrusted text: a newline in it shows as `\n`, so it cannot fake a transcript line. */
function line(text: string, max = MAX_SHOWN): string {
  return printable(text.trimEnd(), { maxLength: max });
}

/**
 * Untrusted multi-line text: each line made printable and every line after
 * the first indented by `prefix`, under the marker that says whose text it is.
 */
function block(text: string, prefix: string): string {
  return printableLines(text.trimEnd(), { maxLength: MAX_SHOWN, maxLines: MAX_LINES }).join(`\n${prefix}`);
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
      return pc.dim(`session ${line(event.sessionId, 120)} (${event.source}) in ${line(event.cwd)}`);
    case 'turn/start':
      return `\n${pc.bold(pc.cyan(`━━ turn ${event.turn} ━━`))}`;
    case 'user/message':
      return `${pc.bold('› user')}  ${block(event.content, '         ')}${event.originalContent !== undefined ? pc.dim('  (rewritten by a hook)') : ''}`;
    case 'prompt/blocked':
      return `${pc.red('› prompt blocked')}  ${pc.red(line(event.reason))}`;
    case 'context/message':
      return pc.blue(`  ⓘ context (${event.source})  ${block(event.content, '      ')}`);
    case 'steering/message':
      return pc.magenta(`  ↻ steering  ${block(event.content, '      ')}`);
    case 'assistant/message':
      return event.content === '' ? '' : `${pc.bold('  ◆ assistant')}  ${block(event.content, '      ')}`;
    case 'tool/call':
      return `  ${pc.bold('⚙ ' + line(event.toolName, 80))} ${pc.dim(line(JSON.stringify(event.arguments), 200))}`;
    case 'tool/result': {
      const marker = event.isError ? pc.red('⇐ error') : pc.green('⇐ result');
      const effect = event.hookEffect !== undefined ? pc.yellow(` [${event.hookEffect} by hook]`) : '';
      return `    ${marker}${effect}  ${block(event.content, '             ')}`;
    }
    case 'hook/invoke': {
      const { action, reason } = describeDecision(event.applied);
      const fault = event.fault !== undefined ? pc.red(` fault ${event.fault.kind} →`) : '';
      // A shell hook runs with the user's rights: say so on every line it decides.
      const unsandboxed = event.sandbox === 'shell' ? ` ${pc.yellow('[unsandboxed]')}` : '';
      const head = `    ${pc.dim('hook')} ${pc.bold(line(event.hook, 80))}${unsandboxed} ${pc.dim(event.seam)}${fault} ${colourAction(action)}`;
      const why = reason !== undefined ? ` ${pc.dim('—')} ${line(reason, 160)}` : '';
      return `${head}${why} ${pc.dim(`${event.durationUs} µs`)}`;
    }
    case 'tool/rewrite':
      return `    ${pc.yellow('✎ rewritten')} by ${event.hooks.map((hook) => pc.bold(line(hook, 80))).join(', ')} ${pc.dim('→ runs')} ${line(JSON.stringify(event.arguments), 200)}`;
    case 'tool/ask': {
      const who = event.asks.map((ask) => `${pc.bold(line(ask.hook, 80))}${ask.reason !== undefined ? ` ${pc.dim('—')} ${line(ask.reason, 160)}` : ''}`);
      return `    ${pc.yellow('? asked')} ${who.join(pc.dim(' · '))} ${pc.dim('→')} ${colourAction(event.answer)}`;
    }
    case 'hook/log':
      return pc.dim(`    log ${line(event.hook, 80)} [${event.level}] ${line(event.message, 200)}`);
    case 'turn/end': {
      const colour = event.reason === 'completed' ? pc.green : event.reason === 'rejected' || event.reason === 'cancelled' ? pc.yellow : pc.red;
      const message = event.message !== undefined ? ` — ${line(event.message)}` : '';
      return colour(`■ turn ${event.turn} ${event.reason} after ${event.steps} step(s)${message}`);
    }
  }
}
