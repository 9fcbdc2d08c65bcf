import { resolve } from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { SeamBus } from '../../events/index.ts';
import { readSessionLog } from '../../log/index.ts';
import { type HookVerdict, type ReplayReport, type Verdicts, replaySession } from '../../loop/index.ts';
import { printable, printableJson } from '../../text/index.ts';
import { openHookSet } from '../hook-set.ts';

// Recorded decisions, subjects and hook names are untrusted text (the log
// keeps them raw): each is made printable before it is shown.
function short(decision: unknown): string {
  if (decision === null) return 'no opinion';
  const { action, reason } = decision as { action?: string; reason?: string };
  if (action === undefined) return printable(JSON.stringify(decision), { maxLength: 300 });
  return printable(reason === undefined ? action : `${action} (${reason})`, { maxLength: 300 });
}

/** A decision as one line, with the arguments a rewrite made it run with. */
function outcome(verdicts: Verdicts): string {
  if (verdicts.rewrite === undefined) return short(verdicts.decision);
  const by = verdicts.rewrite.hooks.map((hook) => printable(hook, { maxLength: 80 })).join(', ');
  return `${short(verdicts.decision)}, rewritten by ${by} to ${printable(printableJson(verdicts.rewrite.arguments), { maxLength: 200 })}`;
}

function hooks(verdicts: readonly HookVerdict[]): string {
  if (verdicts.length === 0) return 'no hooks';
  return verdicts.map((v) => `${printable(v.hook, { maxLength: 80 })}: ${v.fault !== undefined ? `fault ${v.fault} → ` : ''}${short(v.applied)}`).join('; ');
}

export function renderReplay(report: ReplayReport): string {
  const changed = report.decisions.filter((decision) => decision.changed);
  const lines = [`re-decided ${report.decisions.length} decision(s): ${changed.length} would change`];
  for (const decision of changed) {
    lines.push(
      `\n${pc.bold(`turn ${decision.turn}`)} ${pc.dim(decision.seam)} ${printable(decision.subject, { maxLength: 121 })}`,
      `  ${pc.red(outcome(decision.before))} → ${pc.green(outcome(decision.after))}`,
      pc.dim(`  before: ${hooks(decision.before.hooks)}`),
      pc.dim(`  after:  ${hooks(decision.after.hooks)}`),
    );
  }
  for (const skip of report.skipped) lines.push(pc.yellow(`not re-decided: turn ${skip.turn} ${skip.seam} ${printable(skip.subject, { maxLength: 121 })}: ${skip.why}`));
  for (const seam of report.notReplayed) lines.push(pc.dim(`not replayed: ${seam.seam}: ${seam.why}`));
  return `${lines.join('\n')}\n`;
}

export function registerReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('re-decide every recorded prompt and tool call of a session log against another hook set (no tool runs); exit 1 when anything changes')
    .argument('<session.jsonl>', 'a session log')
    .requiredOption('-c, --config <file>', 'the operator config with the hook set to compare against')
    .option('--json', 'print the report as JSON')
    .action(async (logPath: string, flags: { config: string; json?: boolean }) => {
      const { events } = readSessionLog(resolve(logPath));
      const hookSet = await openHookSet(resolve(flags.config));
      let report: ReplayReport;
      try {
        const bus = new SeamBus();
        for (const listener of hookSet.listeners) bus.use(listener);
        report = await replaySession(events, bus);
      } finally {
        await hookSet.close();
      }
      process.stdout.write(flags.json ? `${printableJson(report, 2)}\n` : renderReplay(report));
      process.exitCode = report.decisions.some((decision) => decision.changed) ? 1 : 0;
    });
}
