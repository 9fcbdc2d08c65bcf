import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AGENT_BRIDGES, AGENT_NAMES, type SetupScope, agentBridge, agentNames, detectAgents, detectionLooksFor } from '../../agents/index.ts';
import { ConfigError } from '../../errors.ts';
import { type DoctorReport, agentHasEntries, doctorAgent } from '../doctor.ts';
import { doctorSystem } from '../doctor-system.ts';
import { locatorFinding } from '../doctor-locator.ts';
import { guardedIn } from '../setup-locator.ts';
import { findProjectRoot, startFolderNote } from '../setup-paths.ts';

interface DoctorFlags {
  readonly project?: string;
  readonly user?: boolean;
}

/** Prints one agent's report; every line says what holds or what is wrong and the fix. */
export function renderDoctorReport(report: DoctorReport): string {
  const lines = [`${report.agent}: ${report.ok ? 'ok' : 'NOT OK'} (${report.settingsFile})`];
  for (const finding of report.findings) {
    lines.push(`  ${finding.ok ? 'ok  ' : 'FAIL'} ${finding.what}`);
    if (!finding.ok && finding.fix !== undefined) lines.push(`       fix: ${finding.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The agents doctor checks when none is named: every agent whose settings
 * hold hookbox entries, and every agent the project (or user) uses without
 * them — an agent in use that runs no hookbox hooks is a finding too.
 */
function agentsToCheck(scope: SetupScope): string[] {
  const detected = new Set(detectAgents(scope).map(({ name }) => name));
  return AGENT_NAMES.filter((name) => detected.has(name) || agentHasEntries(AGENT_BRIDGES[name], scope));
}

/** `hookbox doctor [agent]`: exit 1 when any check fails, or (no agent named) when there is no agent to check. */
export async function doctorCommand(agent: string | undefined, flags: DoctorFlags, write: (text: string) => void): Promise<boolean> {
  if (flags.project !== undefined && flags.user === true) throw new ConfigError('give --project DIR or --user, not both');
  // No --project: the project the current folder is in (a subfolder finds the setup above it).
  const cwd = process.cwd();
  const scope: SetupScope = flags.user === true ? { kind: 'user', home: homedir() } : { kind: 'project', dir: resolve(flags.project ?? findProjectRoot(cwd) ?? '.') };
  const agents = agent === undefined ? agentsToCheck(scope) : [agentBridge(agent).name];
  if (agents.length === 0) {
    const where = scope.kind === 'project' ? scope.dir : scope.home;
    write(`no agent to check for ${where}: no agent's settings hold hookbox entries, and none was detected (${detectionLooksFor()})\n  fix: hookbox setup <agent> (one of: ${agentNames().join(', ')})\n`);
    return false;
  }
  let ok = true;
  for (const name of agents) {
    let report = await doctorAgent(agentBridge(name), scope);
    // Started here, an agent that reads settings only where it starts runs none of the project's.
    const subfolder = flags.project === undefined && scope.kind === 'project' ? startFolderNote(agentBridge(name), scope.dir, cwd, (dir) => guardedIn(agentBridge(name), dir)) : undefined;
    if (subfolder !== undefined) report = { ...report, findings: [...report.findings, { ok: false, ...subfolder }], ok: false };
    const locator = scope.kind === 'project' ? locatorFinding(agentBridge(name), scope.dir) : undefined;
    if (locator !== undefined) report = { ...report, findings: [...report.findings, locator], ok: report.ok && locator.ok };
    write(renderDoctorReport(report));
    ok &&= report.ok;
  }
  return ok;
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description("check that an agent will run hookbox's hooks: entries present, trusted, server answering, a probe decided; exit 1 with the fix when not")
    .argument('[agent]', 'the agent (default: every agent set up or detected — its folder in the project, else its command on PATH)')
    .option('--project <dir>', "the project's settings (default: the project the current folder is in — itself or the nearest folder above holding hookbox.config.json)")
    .option('--user', "the user's settings")
    .option('--system', "the machine-wide install (setup --system): the entries on every event, locked so no lower scope switches them off, the files root's alone, the client there and the organisation config loading")
    .action(async (agent: string | undefined, flags: DoctorFlags & { system?: boolean }) => {
      if (flags.system === true && (flags.project !== undefined || flags.user === true)) throw new ConfigError('--system checks the machine-wide scope: give it without --project or --user');
      const write = (text: string) => process.stdout.write(text);
      const ok = flags.system === true ? doctorSystem(agent, write) : await doctorCommand(agent, flags, write);
      if (!ok) process.exitCode = 1;
    });
}
