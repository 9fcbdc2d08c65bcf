import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AGENT_NAMES, type AgentBridge, type DoctorFinding, agentBridge } from '../agents/index.ts';
import { loadLayeredConfig } from '../config/index.ts';
import { type SystemPlace, systemFileOf } from './setup-system.ts';

/** One agent's machine-wide install as `doctor --system` found it. */
export interface SystemReport {
  readonly agent: string;
  readonly file: string | undefined;
  /** `missing`: nothing of hookbox's there; `weakened`: there, but a lower scope or another user can switch it off; `healthy`: neither. */
  readonly state: 'missing' | 'weakened' | 'healthy' | 'none';
  readonly findings: readonly DoctorFinding[];
}

/** The single-quoted words of a command line setup wrote (`shellQuote`), unquoted. */
function quotedWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'/g)].map((match) => match[1]!.replace(/'\\''/g, "'"));
}

/** Root's and writable by no one else: the file and every folder above it (one a developer can write could have the file swapped). */
function ownershipFindings(file: string): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  for (let at = file; ; at = path.dirname(at)) {
    const stat = statSync(at);
    if (stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
      findings.push({
        ok: false,
        what: `${at} is ${stat.uid !== 0 ? `owned by uid ${stat.uid}` : `writable by group or others (mode ${(stat.mode & 0o777).toString(8)})`}: someone other than root can change or replace the policy`,
        fix: `chown root:root ${at} && chmod go-w ${at}`,
      });
    }
    if (path.dirname(at) === at) break;
  }
  if (findings.length === 0) findings.push({ ok: true, what: `${file} and the folders above it are root's and writable by no one else` });
  return findings;
}

function commandFindings(command: string): DoctorFinding[] {
  const words = quotedWords(command);
  const node = words[1];
  const client = words.find((word) => word.endsWith(`${path.sep}hookbox-hook.cjs`));
  const config = /--config\s+'((?:[^']|'\\'')*)'/.exec(command)?.[1]?.replace(/'\\''/g, "'");
  const findings: DoctorFinding[] = [];
  for (const [what, file] of [
    ['Node', node],
    ['the hookbox client', client],
  ] as const) {
    findings.push(
      file !== undefined && existsSync(file)
        ? { ok: true, what: `${what} ${file} is there` }
        : { ok: false, what: `${what} the entries run (${file ?? 'not named'}) is not there: every event is answered closed or not at all`, fix: 'install hookbox machine-wide again and rerun: sudo hookbox setup --system --lock' },
    );
  }
  // A client a developer can write is a client a developer can make answer "allow".
  if (client !== undefined && existsSync(client)) findings.push(...ownershipFindings(client));
  if (config === undefined) return [...findings, { ok: false, what: 'the entries name no organisation config', fix: 'sudo hookbox setup --system --lock' }];
  try {
    const loaded = loadLayeredConfig({ env: { ...process.env, HOOKBOX_ORG_CONFIG: config } });
    findings.push({ ok: true, what: `the organisation config ${config} loads (${loaded.hooks.length} hook${loaded.hooks.length === 1 ? '' : 's'} with this user's layer)` });
  } catch (error) {
    findings.push({ ok: false, what: `the organisation config ${config} does not load: ${(error as Error).message}`, fix: `fix ${config}; until then every event is answered closed` });
  }
  return findings;
}

/** `hookbox doctor --system` for one agent. */
export function doctorSystemAgent(bridge: AgentBridge, place: SystemPlace = {}): SystemReport {
  const system = bridge.setup.system;
  const file = systemFileOf(bridge, place);
  if (system.kind === 'none' || file === undefined) {
    const what = system.kind === 'none' ? `no machine-wide scope (${system.why}); strongest instead: ${system.alternative}` : `no machine-wide file on this platform; strongest instead: hookbox setup ${bridge.name} --user`;
    return { agent: bridge.name, file, state: 'none', findings: [{ ok: true, what }] };
  }

  const fix = `sudo hookbox setup --system --lock ${bridge.name}`;
  if (!existsSync(file)) return { agent: bridge.name, file, state: 'missing', findings: [{ ok: false, what: `${file} is not there: no machine-wide hookbox entries`, fix }] };
  let inspection;
  try {
    inspection = system.inspect(readFileSync(file, 'utf8'));
  } catch (error) {
    return { agent: bridge.name, file, state: 'weakened', findings: [{ ok: false, what: `${file}: ${(error as Error).message}; ${bridge.label} may ignore the whole file`, fix: `fix ${file}, then ${fix}` }] };
  }
  if (inspection.commands.length === 0) return { agent: bridge.name, file, state: 'missing', findings: [{ ok: false, what: `${file} holds no hookbox entries`, fix }] };
  const findings: DoctorFinding[] = [
    inspection.missing.length === 0 ? { ok: true, what: `hookbox's entries on every event in ${file}` } : { ok: false, what: `hookbox's entries missing on ${inspection.missing.join(', ')} in ${file}`, fix },
    inspection.locked
      ? { ok: true, what: `locked (${system.lockKeys}); a lower scope can still: ${system.lowerScope.locked}` }
      : { ok: false, what: `not locked (${system.lockKeys} absent): ${system.lowerScope.unlocked}`, fix },
    ...ownershipFindings(file),
    ...inspection.commands.flatMap(commandFindings),
  ];
  return { agent: bridge.name, file, state: findings.every((finding) => finding.ok) ? 'healthy' : 'weakened', findings };
}

/** `hookbox doctor --system [agent]`: every agent with a machine-wide scope here, or the one named. Returns whether all are healthy. */
export function doctorSystem(agent: string | undefined, write: (text: string) => void, place: SystemPlace = {}): boolean {
  const names = agent !== undefined ? [agentBridge(agent).name] : AGENT_NAMES.filter((name) => systemFileOf(agentBridge(name), place) !== undefined);
  let ok = true;
  for (const name of names) {
    const report = doctorSystemAgent(agentBridge(name), place);
    write(`${report.agent} (machine-wide${report.file === undefined ? '' : `, ${report.file}`}): ${report.state}\n`);
    for (const finding of report.findings) {
      write(`  ${finding.ok ? 'ok  ' : 'FAIL'} ${finding.what}\n`);
      if (!finding.ok && finding.fix !== undefined) write(`       fix: ${finding.fix}\n`);
    }
    ok &&= report.state === 'healthy' || report.state === 'none';
  }
  return ok;
}
