import type { Command } from 'commander';
import { describeReport, runPolicyTests } from '../policy-test.ts';

/**
 * Registers `hookbox test [cases-file]`: runs a table of cases through the
 * configured hooks (real sandbox, real layered config) and exits 1 when a
 * case fails — made for CI.
 */
export function registerTestCommand(program: Command): void {
  program
    .command('test')
    .description("run a table of policy cases through the config's real sandboxed hooks; prints each case and the rule coverage, exits 1 when a case fails")
    .argument('[cases-file]', 'the cases: {"config": "<operator config, relative to this file>", "cases": [{"name", "seam", "payload", "expect": {"action", "reason"?}}]}', 'hookbox.test.json')
    .action(async (file: string) => {
      const report = await runPolicyTests(file);
      process.stdout.write(describeReport(report));
      if (report.results.some((result) => !result.passed)) process.exitCode = 1;
    });
}
