import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sharedCacheDir } from './run-tmp.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'node_modules', '.bin');
/** The real agents, as installed from their exact devDependencies. */
export const CODEX_BIN = join(BIN, 'codex');
export const GEMINI_BIN = join(BIN, 'gemini');
export const PI_BIN = join(BIN, 'pi');
export const COPILOT_BIN = join(BIN, 'copilot');
/** The hookbox bin of this checkout. */
export const HOOKBOX_BIN = resolve(import.meta.dirname, '..', '..', 'host', 'cli', 'hookbox.mjs');

/**
 * Why an agent binary cannot run here (`undefined` when it can): the suite
 * then reports itself skipped with this reason, never passed.
 */
export function agentUnavailable(bin: string, expectedVersion: string): string | undefined {
  const run = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 180_000 }); // gemini's start-up takes 15 s+ on a loaded machine
  if (run.error !== undefined) return `${bin} --version did not complete (${run.error.message})`;
  if (run.status !== 0) return `${bin} --version exited ${String(run.status)}: ${run.stderr.trim().slice(0, 200)}`;
  const printed = `${run.stdout}${run.stderr}`; // pi prints its version on stderr
  if (!printed.includes(expectedVersion)) return `${bin} is ${printed.trim().slice(0, 200)}, not ${expectedVersion}`;
  return undefined;
}

export interface AgentRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command without blocking the event loop (the mock model answers from this process). */
export function runAsync(bin: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<AgentRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}

/** An environment for an agent: the parent's PATH and HOME-free basics, no inherited agent settings. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, LANG, TMPDIR } = process.env;
  return { PATH, LANG, TMPDIR, HOME: extra.HOME, ...extra };
}

/**
 * A `CODEX_HOME` whose config.toml points Codex at the mock model and
 * turns off everything that would leave loopback (update checks, web
 * search, analytics, feedback, plugins and apps).
 */
export function writeCodexHome(home: string, mockUrl: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model_provider = "mock"',
      'model = "gpt-5.5"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      'web_search = "disabled"',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${mockUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      'apps = false',
      'remote_plugin = false',
      '',
    ].join('\n'),
  );
}

/** `codex exec` headless in `cwd`, hooks trusted the normal way (no bypass flag). */
export function runCodex(home: string, cwd: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(CODEX_BIN, ['exec', '--json', '--skip-git-repo-check', prompt], {
    cwd,
    env: baseEnv({ HOME: home, CODEX_HOME: home, MOCK_API_KEY: 'any', ...extraEnv }),
  });
}

/**
 * A Gemini CLI home (`$GEMINI_CLI_HOME/.gemini/settings.json`) with API-key
 * auth and no traffic off loopback: usage statistics, telemetry and
 * updates off.
 */
export function writeGeminiHome(home: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    `${JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      },
      null,
      2,
    )}\n`,
  );
}

/** `gemini -p` headless in `cwd` against the mock model. */
export function runGemini(home: string, cwd: string, mockUrl: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(GEMINI_BIN, ['-p', prompt, '-m', 'gemini-2.5-flash', '--yolo', '--output-format', 'json'], {
    cwd,
    env: baseEnv({
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: 'any',
      GOOGLE_GEMINI_BASE_URL: mockUrl,
      GEMINI_SANDBOX: 'false',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...extraEnv,
    }),
  });
}

/** The model id pi and OpenCode are pointed at (the mock answers any id). */
export const CHAT_MODEL_ID = 'mock-model';

/**
 * A pi agent folder (`$PI_CODING_AGENT_DIR`, here `<home>/.pi/agent`) whose
 * `models.json` adds a provider `mock` speaking chat completions to the mock
 * model; returns the folder.
 */
export function writePiAgentDir(home: string, mockUrl: string): string {
  const agentDir = join(home, '.pi', 'agent');
  mkdirSync(agentDir, { recursive: true });
  const provider = { baseUrl: `${mockUrl}/v1`, api: 'openai-completions', apiKey: 'any', models: [{ id: CHAT_MODEL_ID }] };
  writeFileSync(join(agentDir, 'models.json'), `${JSON.stringify({ providers: { mock: provider } }, null, 2)}\n`);
  return agentDir;
}

/** `pi -p` headless in `cwd` against the mock provider, offline, no session file, no version check; several prompts are sent one after another. */
export function runPi(home: string, cwd: string, prompt: string | readonly string[], extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(PI_BIN, ['-p', '--mode', 'json', '--no-session', '--provider', 'mock', '--model', CHAT_MODEL_ID, ...(typeof prompt === 'string' ? [prompt] : prompt)], {
    cwd,
    env: baseEnv({ HOME: home, PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'), PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', ...extraEnv }),
  });
}

/**
 * An `opencode.json` in `project` whose only provider is `mock` (chat
 * completions at the mock model, through `@ai-sdk/openai-compatible`), bash
 * and edits allowed without asking.
 */
export function writeOpenCodeProject(project: string, mockUrl: string): void {
  const provider = { npm: '@ai-sdk/openai-compatible', name: 'mock', options: { baseURL: `${mockUrl}/v1`, apiKey: 'any' }, models: { [CHAT_MODEL_ID]: { name: CHAT_MODEL_ID } } };
  const config = { model: `mock/${CHAT_MODEL_ID}`, permission: { bash: 'allow', edit: 'allow' }, provider: { mock: provider } };
  writeFileSync(join(project, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * `opencode run --format json` headless in `cwd` (`bin`: OpenCode installed
 * at test time, `installedAgent`): private XDG folders, no model list fetch,
 * update, LSP download, sharing or default plugins.
 */
export function runOpenCode(bin: string, home: string, cwd: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(bin, ['run', '--format', 'json', prompt], {
    cwd,
    // The first run in a project installs `@opencode-ai/plugin` (64 MB) from the registry, through an npm
    // cache every run shares: measured quiet, 13.3 s a run with a fresh cache, 10.2 s with a warm one.
    timeoutMs: 240_000,
    env: baseEnv({
      npm_config_cache: sharedCacheDir('hookbox-agent-npm-cache'),
      npm_config_prefer_offline: 'true',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      ...extraEnv,
    }),
  });
}

/**
 * A `kilo.json` in `project` whose only provider is `mock` (chat completions
 * at the mock model, through `@ai-sdk/openai-compatible`, as OpenCode's) and
 * the only one enabled (Kilo otherwise asks api.kilo.ai for its own
 * provider's models), bash and edits allowed without asking.
 */
export function writeKiloProject(project: string, mockUrl: string): void {
  const provider = { npm: '@ai-sdk/openai-compatible', name: 'mock', options: { baseURL: `${mockUrl}/v1`, apiKey: 'any' }, models: { [CHAT_MODEL_ID]: { name: CHAT_MODEL_ID } } };
  const config = { model: `mock/${CHAT_MODEL_ID}`, enabled_providers: ['mock'], permission: { bash: 'allow', edit: 'allow' }, provider: { mock: provider } };
  writeFileSync(join(project, 'kilo.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * `kilo run --format json` headless in `cwd` (`bin`: Kilo CLI installed at
 * test time, `installedAgent`): private XDG folders, and Kilo's own switches
 * (`KILO_*`, not OpenCode's) for the models.dev fetch, update, LSP download,
 * sharing, session upload, default plugins, the background daemon and its
 * PostHog telemetry (any level but "all" is off).
 */
export function runKilo(bin: string, home: string, cwd: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(bin, ['run', '--format', 'json', prompt], {
    cwd,
    timeoutMs: 240_000,
    env: baseEnv({
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_DISABLE_LSP_DOWNLOAD: '1',
      KILO_DISABLE_SHARE: '1',
      KILO_DISABLE_SESSION_INGEST: '1',
      KILO_DISABLE_DEFAULT_PLUGINS: '1',
      KILO_NO_DAEMON: '1',
      KILO_TELEMETRY_LEVEL: 'off',
      ...extraEnv,
    }),
  });
}

/**
 * Where Copilot CLI unpacks itself on first run (~235 MB): one folder under
 * the temp dir shared by every run, so only the first run pays for it.
 */
export const COPILOT_CACHE_DIR = sharedCacheDir('hookbox-copilot-cache');

/**
 * `copilot -p` headless in `cwd` against a mock chat-completions model
 * (`<mockUrl>/v1`), offline, no auto-update, no telemetry; the folder
 * trusted (repository hooks run only in a trusted folder) and every tool
 * allowed, so only hooks decide.
 */
export function runCopilot(
  home: string,
  cwd: string,
  mockUrl: string,
  prompt: string,
  extraEnv: Record<string, string> = {},
  { allowAllTools = true }: { readonly allowAllTools?: boolean } = {},
): Promise<AgentRun> {
  // Without --allow-all-tools a shell call asks (headless: its permissionRequest hooks, then a refusal).
  const allow = allowAllTools ? ['--allow-all-tools'] : [];
  return runAsync(COPILOT_BIN, ['-p', prompt, ...allow, '--trust-folder', '--output-format', 'json', '--disable-client-telemetry'], {
    cwd,
    timeoutMs: 240_000,
    env: baseEnv({
      HOME: home,
      XDG_CACHE_HOME: COPILOT_CACHE_DIR,
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'any',
      COPILOT_MODEL: 'claude-sonnet-4.5',
      ...extraEnv,
    }),
  });
}

/**
 * `qwen -p` (the `bin` a test installed) headless in `cwd` against a mock
 * chat-completions model (`<mockUrl>/v1`): every tool allowed (`--yolo`),
 * the workspace trusted, its home under `<home>/.qwen` (`QWEN_HOME`).
 */
export function runQwen(bin: string, home: string, cwd: string, mockUrl: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(bin, ['-p', prompt, '--yolo', '--auth-type', 'openai', '--output-format', 'json'], {
    cwd,
    timeoutMs: 240_000,
    env: baseEnv({
      HOME: home,
      QWEN_HOME: join(home, '.qwen'),
      OPENAI_API_KEY: 'any',
      OPENAI_BASE_URL: `${mockUrl}/v1`,
      OPENAI_MODEL: CHAT_MODEL_ID,
      QWEN_CODE_TRUST_WORKSPACE: 'true',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      ...extraEnv,
    }),
  });
}

/** The model id Factory Droid is pointed at: a custom Anthropic model at the mock. */
export const FACTORY_MODEL = 'claude-sonnet-4-5';

/**
 * A Factory home (`$FACTORY_HOME_OVERRIDE/.factory/settings.json`) whose one
 * custom model is an Anthropic API at the mock, no cloud session sync.
 */
export function writeFactoryHome(home: string, mockUrl: string): void {
  mkdirSync(join(home, '.factory'), { recursive: true });
  const model = { model: FACTORY_MODEL, baseUrl: mockUrl, apiKey: 'any', provider: 'anthropic', maxOutputTokens: 4000 };
  writeFileSync(join(home, '.factory', 'settings.json'), `${JSON.stringify({ customModels: [model], cloudSessionSync: false }, null, 2)}\n`);
}

/** `droid exec` (the `bin` a test installed) headless in `cwd` with the custom model, every tool allowed, no auto-update. */
export function runFactory(bin: string, home: string, cwd: string, prompt: string, extraEnv: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(bin, ['exec', '--skip-permissions-unsafe', '-m', `custom:${FACTORY_MODEL}`, '-o', 'json', prompt], {
    cwd,
    timeoutMs: 240_000,
    env: baseEnv({ HOME: home, FACTORY_HOME_OVERRIDE: home, FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false', ...extraEnv }),
  });
}

/** `hookbox <args>` as the user would run it. */
export function hookbox(args: readonly string[], env: Record<string, string> = {}): Promise<AgentRun> {
  return runAsync(process.execPath, [HOOKBOX_BIN, ...args], { cwd: process.cwd(), env: { ...process.env, ...env } });
}

/** A running `hookbox serve` on a unix socket. */
export interface RunningServer {
  readonly socket: string;
  /** Its stderr so far (one line per request). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `hookbox serve --config <config> --socket <dir>/serve.sock` and waits until it listens. */
export function startHookboxServer(config: string, dir: string): Promise<RunningServer> {
  const socket = join(dir, 'serve.sock');
  const child = spawn(process.execPath, [HOOKBOX_BIN, 'serve', '--config', config, '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookbox serve did not start in 120 s: ${stderr}`));
    }, 120_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('listening on')) {
        clearTimeout(timer);
        resolvePromise({
          socket,
          log: () => stderr,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('close', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`hookbox serve exited ${String(code)}: ${stderr}`));
    });
  });
}
