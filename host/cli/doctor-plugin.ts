import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentBridge, DoctorFinding, SetupScope } from '../agents/index.ts';
import { checkServerIdentity, postProbe } from './doctor-server.ts';

interface PluginClientModule {
  pluginClient(agent: string, options: unknown, from: string): { decide(event: unknown, kind: string): Promise<Record<string, unknown>> };
}

/**
 * `hookbox doctor` for an agent that loads hookbox as a plugin (pi,
 * OpenCode, Kilo CLI): the plugin file is hookbox's and parses, the module it imports
 * exists, the server it names answers (when one runs), and a probe event
 * through the very client the plugin runs comes back decided — with the
 * plugin's own deadline, so a hung server shows as the closed answer it
 * would give the agent.
 */
export async function doctorPluginAgent(bridge: AgentBridge, scope: SetupScope, file: string): Promise<DoctorFinding[]> {
  const format = bridge.setup.fileFormat!;
  const hint = `hookbox setup ${bridge.name} ${scope.kind === 'project' ? `--project ${scope.dir}` : '--user'} --config <your hookbox.config.json>`;
  if (!existsSync(file)) return [{ ok: false, what: `${file} does not exist: ${bridge.label} runs no hookbox plugin`, fix: hint }];
  let settings: Record<string, unknown>;
  try {
    settings = format.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [{ ok: false, what: `${file}: ${(error as Error).message}`, fix: hint }];
  }
  const ours = settings.hookbox as { module: string; options: { socket: string; config: string; deadlineMs: number } };
  const findings: DoctorFinding[] = [{ ok: true, what: `${file} is hookbox's plugin file (deadline ${ours.options.deadlineMs} ms)` }];
  const fileDir = path.dirname(file);
  const module = path.isAbsolute(ours.module) ? ours.module : path.resolve(fileDir, ours.module);
  if (!existsSync(module)) {
    findings.push({ ok: false, what: `the plugin module ${module} does not exist: ${bridge.label} fails to load the plugin`, fix: `install hookbox where the file expects it, or ${hint}` });
    return findings;
  }
  // Relative paths start at the project, two folders above the plugin file (as the plugin resolves them).
  const project = path.resolve(fileDir, '..', '..');
  const at = (name: string) => (path.isAbsolute(name) ? name : path.resolve(project, name));
  const socket = at(ours.options.socket);
  const config = at(ours.options.config);
  if (!existsSync(config)) findings.push({ ok: false, what: `the config ${config} the plugin names does not exist: every event is answered closed`, fix: hint });
  if (existsSync(socket)) {
    const answered = await postProbe({ socket, agent: bridge.name, config }, JSON.stringify(bridge.probe.event(project)));
    findings.push(
      answered.ok
        ? { ok: true, what: `server on ${socket} answered a probe (${answered.detail})` }
        : { ok: false, what: `a socket exists at ${socket} but no server answered (${answered.detail})`, fix: `restart it: hookbox serve --config ${config} --socket ${socket}` },
    );
    if (answered.ok) findings.push(await checkServerIdentity({ socket }, config));
  } else {
    findings.push({ ok: true, what: `no server on ${socket}: each event is decided by a hookbox hook process (slower; hooks keep no state across events) — start one with hookbox serve --socket ${socket} --config ${config}` });
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'hookbox-doctor-'));
  try {
    const client = (await import(pathToFileURL(path.join(path.dirname(module), '..', 'plugin-client.mjs')).href)) as PluginClientModule;
    const started = process.hrtime.bigint();
    const answer = await client.pluginClient(bridge.name, ours.options, pathToFileURL(file).href).decide(bridge.probe.event(dir), 'preTool');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const said = JSON.stringify(answer).slice(0, 300);
    findings.push(
      typeof answer.deny === 'string' && answer.deny.startsWith('hookbox: ')
        ? { ok: false, what: `probe event through the plugin's client failed closed in ${ms.toFixed(0)} ms: ${said}`, fix: 'check the config file and that the hooks are built; `hookbox hook ' + bridge.name + '` with the probe on stdin shows why' }
        : { ok: true, what: `probe event through the plugin's client decided in ${ms.toFixed(0)} ms (${said === '{}' ? 'no objection' : said})` },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return findings;
}
