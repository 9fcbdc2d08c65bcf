import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentBridge, DoctorFinding, SetupScope } from '../bridges/agents/index.ts';
import { handlerPositions } from '../bridges/agents/hook-groups.ts';

/** A probe event per agent: a harmless shell command, asked as the agent asks it. */
const PROBES: Readonly<Record<string, (cwd: string) => Record<string, unknown>>> = {
  'claude-code': (cwd) => ({ ...common(cwd, 'PreToolUse'), tool_name: 'Bash', tool_input: { command: 'true' }, tool_use_id: 'hookbox-doctor-probe' }),
  codex: (cwd) => ({ ...common(cwd, 'PreToolUse'), model: 'probe', turn_id: 'probe', tool_name: 'Bash', tool_input: { command: 'true' }, tool_use_id: 'hookbox-doctor-probe' }),
  gemini: (cwd) => ({ ...common(cwd, 'BeforeTool'), timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command: 'true' } }),
};

function common(cwd: string, event: string): Record<string, unknown> {
  return { session_id: 'hookbox-doctor-probe', transcript_path: null, cwd, hook_event_name: event, permission_mode: 'default' };
}

/** What doctor found for one agent; `ok` when every finding holds. */
export interface DoctorReport {
  readonly agent: string;
  readonly settingsFile: string;
  readonly findings: readonly DoctorFinding[];
  readonly ok: boolean;
}

/**
 * Checks one agent's setup: the settings have hookbox's entry for every
 * event the bridge maps, the agent-specific conditions hold (trust), the
 * server the entries name answers (when one is configured), and a probe
 * event sent through the very command the agent runs comes back decided.
 */
export async function doctorAgent(bridge: AgentBridge, scope: SetupScope): Promise<DoctorReport> {
  const settingsFile = bridge.setup.settingsPath(scope);
  const findings: DoctorFinding[] = [];
  const report = (): DoctorReport => ({ agent: bridge.name, settingsFile, findings, ok: findings.every((finding) => finding.ok) });
  const setupHint = `hookbox setup ${bridge.name} ${scope.kind === 'project' ? `--project ${scope.dir}` : '--user'} --config <your hookbox.config.json>`;
  if (!existsSync(settingsFile)) {
    findings.push({ ok: false, what: `${settingsFile} does not exist: ${bridge.label} runs no hookbox hooks`, fix: setupHint });
    return report();
  }
  let settings: Record<string, unknown>;
  try {
    settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new Error('not a JSON object');
  } catch (error) {
    findings.push({ ok: false, what: `${settingsFile} does not parse (${(error as Error).message})`, fix: `fix the JSON; ${bridge.label} ignores it (or refuses to start)` });
    return report();
  }
  // The entries are whatever `setup --remove` would take out.
  let removed;
  try {
    removed = bridge.setup.remove(settings).changes;
  } catch (error) {
    findings.push({ ok: false, what: `${settingsFile}: ${(error as Error).message}`, fix: setupHint });
    return report();
  }
  const present = new Set(removed.map((change) => /^hooks\.([^[]+)\[/.exec(change.where)?.[1]));
  const missing = bridge.events.map((row) => row.event).filter((event, i, all) => all.indexOf(event) === i && !present.has(event));
  if (present.size === 0) {
    findings.push({ ok: false, what: `${settingsFile} has no hookbox entries`, fix: setupHint });
    return report();
  }
  findings.push(
    missing.length === 0
      ? { ok: true, what: `${settingsFile} has hookbox's entries for ${[...present].join(', ')}` }
      : { ok: false, what: `${settingsFile} lacks hookbox's entries for ${missing.join(', ')}`, fix: setupHint },
  );
  findings.push(...(bridge.setup.verify?.({ scope, settingsFile, settings }) ?? []));
  const handler = handlerPositions(settings).find((position) => removed.some((change) => change.where === `hooks.${position.event}[${position.group}]`))?.handler;
  if (handler !== undefined) findings.push(...(await probe(bridge, handler)));
  return report();
}

async function probe(bridge: AgentBridge, handler: Record<string, unknown>): Promise<DoctorFinding[]> {
  const event = PROBES[bridge.name];
  if (event === undefined) return [];
  const findings: DoctorFinding[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'hookbox-doctor-'));
  try {
    const input = JSON.stringify(event(dir));
    if (handler.type === 'http' && typeof handler.url === 'string') {
      const answered = await postProbe({ url: handler.url, headers: (handler.headers ?? {}) as Record<string, string> }, input);
      findings.push(
        answered.ok
          ? { ok: true, what: `server at ${handler.url} answered a probe (${answered.detail})` }
          : { ok: false, what: `server at ${handler.url} did not answer (${answered.detail}); ${bridge.label} lets events through unchecked while it is down`, fix: 'start it: hookbox serve --config <your hookbox.config.json>' },
      );
      return findings;
    }
    if (typeof handler.command !== 'string') return findings;
    const words = shellWords(handler.command);
    const socket = words[words.indexOf('--socket') + 1];
    if (words.includes('--socket') && socket !== undefined) {
      if (existsSync(socket)) {
        const answered = await postProbe({ socket, agent: bridge.name }, input);
        findings.push(
          answered.ok
            ? { ok: true, what: `server on ${socket} answered a probe (${answered.detail})` }
            : { ok: false, what: `a socket exists at ${socket} but no server answered (${answered.detail})`, fix: 'restart it: hookbox serve --config <your hookbox.config.json> --socket ' + socket },
        );
      } else {
        findings.push({ ok: true, what: `no server on ${socket}: each event is decided in-process (slower; hooks keep no state across events) — start one with hookbox serve --socket ${socket} --config <config>` });
      }
    }
    const started = process.hrtime.bigint();
    const run = await runShell(handler.command, input, dir, timeoutMs(bridge, handler));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const said = (run.exitCode === 0 ? run.stdout : run.stderr).trim().replace(/\s+/g, ' ').slice(0, 300);
    if (run.exitCode === 0 && !/"hookbox: /.test(run.stdout)) {
      findings.push({ ok: true, what: `probe event through the configured command decided in ${ms.toFixed(0)} ms (${said === '' ? 'no objection' : said})` });
    } else {
      findings.push({
        ok: false,
        what: `probe event through the configured command failed closed (exit ${String(run.exitCode)}${run.timedOut ? ', timed out' : ''}): ${said === '' ? '(no output)' : said}`,
        fix: 'run the command by hand with the probe on stdin to see why; check the --config file and that the hooks are built',
      });
    }
    return findings;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function timeoutMs(bridge: AgentBridge, handler: Record<string, unknown>): number {
  const value = typeof handler.timeout === 'number' ? handler.timeout : 30;
  // Gemini's timeout is in ms, Claude Code's and Codex's in seconds.
  return bridge.name === 'gemini' ? value : value * 1000;
}

/** The words of a command line written by `setup` (single-quoted words, or bare ones). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

function runShell(command: string, input: string, cwd: string, timeout: number): Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stdout, stderr: error.message, timedOut });
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, timedOut });
    });
    child.stdin.end(input);
  });
}

type Target = { readonly socket: string; readonly agent: string } | { readonly url: string; readonly headers: Record<string, string> };

function postProbe(target: Target, body: string): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...('headers' in target ? target.headers : {}) };
    const options: http.RequestOptions =
      'socket' in target ? { socketPath: target.socket, path: `/hooks/${target.agent}`, method: 'POST', headers, timeout: 10_000 } : { method: 'POST', headers, timeout: 10_000 };
    const request = 'socket' in target ? http.request(options) : http.request(target.url, options);
    request.on('response', (response) => {
      response.resume();
      const exit = response.headers['x-hookbox-exit'];
      const ok = response.statusCode === 200 && (exit === undefined || exit === '0' || exit === '2');
      resolve({ ok, detail: `HTTP ${String(response.statusCode)}${exit === undefined ? '' : `, exit ${String(exit)}`}` });
    });
    request.on('timeout', () => request.destroy(new Error('no answer in 10 s')));
    request.on('error', (error) => resolve({ ok: false, detail: error.message }));
    request.end(body);
  });
}
