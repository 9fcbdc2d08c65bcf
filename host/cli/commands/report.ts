import { realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../errors.ts';
import { readReportLogs, renderPage, summarize } from '../../report/index.ts';
import { printableJson } from '../../text/index.ts';

interface ReportFlags {
  output?: string;
  json?: boolean;
  showBlockedPrompts?: boolean;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * Writes the report next to its destination and renames it into place, so a
 * failed write never leaves half a report, and refuses to write over one of
 * the logs it was made from (a session log is never lost to a typo in `-o`).
 */
function writeOutput(output: string, text: string, logs: readonly string[]): void {
  const clash = logs.find((log) => samePath(log, output));
  if (clash !== undefined) throw new ConfigError(`-o ${output}: is the session log ${clash}; the report must go to another file`);
  const temporary = `${output}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, output);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ConfigError(`-o ${output}: cannot write the report (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
}

/** Registers `hookbox report <session.jsonl>… [-o report.html] [--json]`. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('write a self-contained HTML audit report of session logs (run, acp, serve): summary, per-hook table, latency charts, denials, timeline')
    .argument('<session.jsonl...>', 'session logs, e.g. .hookbox/sessions/*.jsonl')
    .option('-o, --output <file>', 'write the report to this file (default: stdout)')
    .option('--json', "print the report's computed data (totals, hooks, denials/asks/blocks) as JSON instead of HTML")
    .option('--show-blocked-prompts', 'quote the text of blocked prompts (withheld by default: it is usually why they were blocked)')
    .addHelpText(
      'after',
      '\nEvery text from a log is shown escaped (HTML, and control/bidi characters as \\x1b, \\u{202e}…).\nThe HTML has no script and no external asset; its Content-Security-Policy allows nothing but its own style sheet.\nExit 2 with the file and line when a log cannot be read.',
    )
    .action((files: string[], flags: ReportFlags) => {
      const logs = readReportLogs(files);
      const options = { showBlockedPrompts: flags.showBlockedPrompts === true };
      const data = summarize(logs, options);
      const text =
        flags.json === true
          ? `${printableJson(data, 2)}\n`
          : renderPage(
              data,
              logs.map((log) => log.events),
              { ...options, generatedAt: new Date().toISOString() },
            );
      if (flags.output === undefined) process.stdout.write(text);
      else {
        writeOutput(flags.output, text, files);
        process.stderr.write(`report: ${flags.output} (${data.sessions.length} session(s), ${data.findings.length} denial(s)/ask(s)/block(s))\n`);
      }
    });
}
