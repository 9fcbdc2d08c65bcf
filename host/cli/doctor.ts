import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentBridge, DoctorFinding, SetupScope } from '../agents/index.ts';
import { handlerPositions } from '../agents/hook-groups.ts';
import { doctorPluginAgent } from './doctor-plugin.ts';
import { checkServerIdentity, postProbe } from './doctor-server.ts';
import { defaultSocketPath } from '../serve/index.ts';
import { hookClientOf } from './setup-paths.ts';
import { printable } from '../text/index.ts';

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
  // hookbox's entries are in the committed settings, or (an http setup, holding the token) the local ones.
  const local = bridge.setup.localSettingsPath?.(scope);
  const committed = bridge.setup.settingsPath(scope);
  const settingsFile = local !== undefined && existsSync(local) && !hasHookboxEntries(bridge, committed) && hasHookboxEntries(bridge, local) ? local : committed;
  const findings: DoctorFinding[] = [];
  const report = (): DoctorReport => ({ agent: bridge.name, settingsFile, findings, ok: findings.every((finding) => finding.ok) });
  if (bridge.setup.plugin !== undefined) {
    findings.push(...(await doctorPluginAgent(bridge, scope, settingsFile)));
    return report();
  }
  const setupHint = `hookbox setup ${bridge.name} ${scope.kind === 'project' ? `--project ${scope.dir}` : '--user'} --config <your hookbox.config.json>`;
  if (!existsSync(settingsFile)) {
    findings.push({ ok: false, what: `${settingsFile} does not exist: ${bridge.label} runs no hookbox hooks`, fix: setupHint });
    return report();
  }
  let settings: Record<string, unknown>;
  try {
    settings = bridge.setup.folderFormat?.read(settingsFile) ?? (JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>);
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
  if (present.size === 0) {
    findings.push({ ok: false, what: `${settingsFile} has no hookbox entries`, fix: setupHint });
    return report();
  }
  const handler = (bridge.setup.handlers?.(settings) ?? handlerPositions(settings)).find((position) => removed.some((change) => change.where === `hooks.${position.event}[${position.group}]`))?.handler;
  // An http setup writes no entry for the events the agent calls command hooks only for; asking for them would send the user back to the command transport.
  const http = handler?.type === 'http';
  const commandOnly = new Set(http ? (bridge.setup.commandOnlyEvents ?? []) : []);
  const missing = bridge.events.map((row) => row.event).filter((event, i, all) => all.indexOf(event) === i && !present.has(event) && !commandOnly.has(event));
  const transportHint = http ? `${setupHint} --transport http` : setupHint;
  findings.push(
    missing.length === 0
      ? { ok: true, what: `${settingsFile} has hookbox's entries for ${[...present].join(', ')}${commandOnly.size > 0 ? ` (none for ${[...commandOnly].join(', ')}: ${bridge.label} calls command hooks only there, and the server fires it itself)` : ''}` }
      : { ok: false, what: `${settingsFile} lacks hookbox's entries for ${missing.join(', ')}`, fix: transportHint },
  );
  findings.push(...(bridge.setup.verify?.({ scope, settingsFile, settings }) ?? []));
  if (handler !== undefined) findings.push(...(await probe(bridge, handler, scope)));
  return report();
}

/** Whether the agent's settings for the scope (committed or local) hold any hookbox entry. */
export function agentHasEntries(bridge: AgentBridge, scope: SetupScope): boolean {
  const local = bridge.setup.localSettingsPath?.(scope);
  return hasHookboxEntries(bridge, bridge.setup.settingsPath(scope)) || (local !== undefined && hasHookboxEntries(bridge, local));
}

function hasHookboxEntries(bridge: AgentBridge, file: string): boolean {
  try {
    if (!existsSync(file)) return false;
    if (bridge.setup.folderFormat !== undefined) return bridge.setup.remove(bridge.setup.folderFormat.read(file)).changes.length > 0;
    const text = readFileSync(file, 'utf8');
    // A plugin agent's file (pi, OpenCode) is in its own format: hookbox's when it parses as hookbox's.
    const settings = bridge.setup.fileFormat !== undefined ? bridge.setup.fileFormat.parse(text) : (JSON.parse(text) as Record<string, unknown>);
    return bridge.setup.remove(settings).changes.length > 0;
  } catch {
    return false;
  }
}

/** The environment and folder an agent runs a hook command with: the project, named as the agent names it. */
function agentShell(bridge: AgentBridge, scope: SetupScope): { cwd: string | undefined; env: NodeJS.ProcessEnv } {
  if (scope.kind !== 'project') return { cwd: undefined, env: process.env };
  const variable = bridge.projectDirVariable;
  return { cwd: scope.dir, env: { ...process.env, ...(variable !== undefined && { [variable]: scope.dir }) } };
}

async function probe(bridge: AgentBridge, handler: Record<string, unknown>, scope: SetupScope): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'hookbox-doctor-'));
  try {
    const input = JSON.stringify(bridge.probe.event(dir));
    if (handler.type === 'http' && typeof handler.url === 'string') {
      const headers = (handler.headers ?? {}) as Record<string, string>;
      // First: is it hookbox at all? Only a process holding the token answers the nonce.
      const proven = await checkServerIdentity({ url: handler.url, headers }, undefined);
      findings.push(proven);
      if (!proven.ok) return findings;
      const answered = await postProbe({ url: handler.url, headers }, input);
      findings.push(
        answered.ok
          ? { ok: true, what: `server at ${handler.url} answered a probe (${answered.detail})` }
          : { ok: false, what: `server at ${handler.url} did not answer (${answered.detail}); ${bridge.label} lets events through unchecked while it is down`, fix: 'start it: hookbox serve --config <your hookbox.config.json>' },
      );
      return findings;
    }
    if (typeof handler.command !== 'string') return findings;
    const shell = agentShell(bridge, scope);
    findings.push(clientFinding(handler.command, shell.env));
    const words = shellWords(handler.command);
    // Relative paths start where the client starts them: the folder a setup prologue walks up to, else the agent's project folder.
    const base = prologueRoot(handler.command, shell.cwd ?? process.cwd());
    const named = (flag: string) => (words.includes(flag) && words[words.indexOf(flag) + 1] !== undefined ? path.resolve(base, words[words.indexOf(flag) + 1]!) : undefined);
    const socket = named('--socket');
    const config = named('--config');
    if (socket !== undefined) {
      const serveLog = serveLogFinding(socket);
      if (serveLog !== undefined) findings.push(serveLog);
      if (existsSync(socket)) {
        // An agent whose events carry no name has it in the route (`copilot/preToolUse`).
        const route = bridge.probe.eventName === undefined ? bridge.name : `${bridge.name}/${bridge.probe.eventName}`;
        const answered = await postProbe({ socket, agent: route, ...(config !== undefined && { config }) }, input);
        findings.push(
          answered.ok
            ? { ok: true, what: `server on ${socket} answered a probe (${answered.detail})` }
            : { ok: false, what: `a socket exists at ${socket} but no server answered (${answered.detail})`, fix: 'restart it: hookbox serve --config <your hookbox.config.json> --socket ' + socket },
        );
        if (answered.ok) findings.push(await checkServerIdentity({ socket }, config));
      } else {
        findings.push(await noServerFinding(socket, config));
      }
    }
    const started = process.hrtime.bigint();
    const run = await runShell(handler.command, input, shell, timeoutMs(bridge, handler));
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

/**
 * No server where the clients look. The command transport then decides each
 * event in a fresh process — fine when nobody started a server; but when a
 * hookbox server for this very config answers on the user-wide socket (where
 * `serve` listened by default before it served the project's), the operator
 * expects one and the agents never ask it: hooks that remember across events
 * silently lose their state. That is a failure, with the line that fixes it.
 */
async function noServerFinding(socket: string, config: string | undefined): Promise<DoctorFinding> {
  const start = `hookbox serve --config ${config ?? '<your hookbox.config.json>'} --socket ${socket}`;
  const elsewhere = defaultSocketPath();
  if (config !== undefined && elsewhere !== socket && existsSync(elsewhere) && (await checkServerIdentity({ socket: elsewhere }, config)).ok) {
    return {
      ok: false,
      what: `no server on ${socket}, where the hook clients look — but a hookbox server for this config answers on ${elsewhere}, which the agents never ask: every event is decided in a fresh process and hooks that remember across events lose their state`,
      fix: `stop that server and start it where the clients look: ${start}`,
    };
  }
  return {
    ok: true,
    what: `no server on ${socket}: the next event is decided in-process (slower; hooks keep no state across events) and starts one for this project unless HOOKBOX_NO_AUTOSTART=1 or --no-autostart — or start one with ${start}`,
  };
}

/** The log of the server the clients start for the project (host/cli/autostart.cjs): where it is and its last line. */
function serveLogFinding(socket: string): DoctorFinding | undefined {
  const file = path.join(path.dirname(socket), 'serve.log');
  if (!existsSync(file)) return undefined;
  // Its tail only: the log grows by a line per event.
  const fd = openSync(file, 'r');
  const tail = Buffer.alloc(4096);
  let read: number;
  try {
    read = readSync(fd, tail, 0, tail.length, Math.max(0, fstatSync(fd).size - tail.length));
  } finally {
    closeSync(fd);
  }
  const last = tail.subarray(0, read).toString('utf8').trimEnd().split('\n').at(-1) ?? '';
  return { ok: true, what: `the server the hook clients start for this project logs to ${file} (last: ${printable(last, { maxLength: 200 })})` };
}

/** The folder a command's `sh -c` prologue (setup-paths.ts `hookCommand`) walks up to from `start`; `start` for any other command. */
function prologueRoot(command: string, start: string): string {
  const until = /until ((?:\[ -e "\$r\/[\w./-]+" \](?: && )?)+);/.exec(command)?.[1];
  if (until === undefined) return start;
  const markers = [...until.matchAll(/\$r\/([\w./-]+)"/g)].map((match) => match[1]!);
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (markers.every((marker) => existsSync(path.join(dir, marker)))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/** Which command client the handler runs (native, sh or node); for the sh one, whether the agent's PATH has the curl it needs to skip Node. */
function clientFinding(command: string, env: NodeJS.ProcessEnv): DoctorFinding {
  const client = hookClientOf(command);
  if (client === 'node') return { ok: true, what: 'command client: node (a Node start per event; `hookbox setup --client sh` skips it while the server is up)' };
  if (client === 'native') return { ok: true, what: 'command client: native (no interpreter start; what it does not decide goes to the Node client)' };
  if (client === undefined) return { ok: true, what: 'command client: not one of hookbox-hook.sh, hookbox-hook.cjs or the native hookbox-hook' };
  const curl = (env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && existsSync(path.join(dir, 'curl')));
  return curl
    ? { ok: true, what: 'command client: sh (curl to the server, no Node start while the server is up)' }
    : { ok: true, what: 'command client: sh, but no curl on PATH: every event goes to the Node client (install curl for the fast path)' };
}

function timeoutMs(bridge: AgentBridge, handler: Record<string, unknown>): number {
  const value = typeof handler.timeout === 'number' ? handler.timeout : 30;
  return value * bridge.probe.timeoutUnitMs;
}

/** The words of a command line written by `setup` (single-quoted words, or bare ones). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
  return words;
}

function runShell(
  command: string,
  input: string,
  shell: { cwd: string | undefined; env: NodeJS.ProcessEnv },
  timeout: number,
): Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { ...(shell.cwd !== undefined && { cwd: shell.cwd }), env: shell.env, stdio: ['pipe', 'pipe', 'pipe'] });
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
