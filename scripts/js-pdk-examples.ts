/**
 * Builds the official js-pdk examples with hookbox's build, sources unchanged, and runs
 * each through the real runner with the calls and checks js-pdk's own Makefile `test`
 * target makes (its inputs, its expected output or log line), printing one row per
 * example and the count. The examples are not in this repository (they are js-pdk's
 * code): point the script at a checkout of github.com/extism/js-pdk.
 *
 *   npx tsx scripts/js-pdk-examples.ts <js-pdk checkout> [--only name,name] [--stand-in]
 *
 * Three examples talk to the internet (`http://example.com`, `https://postman-echo.com`).
 * With `--stand-in` the script re-runs itself in a private mount namespace (`unshare`)
 * whose /etc/hosts points those names at 127.0.0.1, where it serves our own stand-ins
 * (port 80, and 443 with a throwaway certificate made by `openssl`); without it they run
 * against the real hosts, or fail where there is no network. Nothing else is faked:
 * the host functions of `host_funcs` are a host module written here with the values
 * js-pdk's Go host answers.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildHook } from '../pdk/compiler/index.ts';
import { HookRunner } from '../host/runner/index.ts';
import type { ExportCallOutcome, HookLogEntry } from '../host/runner/types.ts';

/** One call of an export and what js-pdk's Makefile expects of it. */
interface ExampleCall {
  readonly export: string;
  readonly input?: string;
  /** What the call must show: a text in the output, the logs or the fault message; or a fault. */
  readonly expect: { output?: string | RegExp; log?: string; anywhere?: string; fault?: string; notFault?: string };
}

interface Example {
  readonly name: string;
  /** The entry hookbox builds, relative to the example's folder. */
  readonly entry: string;
  /** Its npm dependencies are installed first (from its package.json, js-pdk's local path dependency left out). */
  readonly npm?: boolean;
  /** `hookbox build --no-typecheck`: a source that does not type-check (extism-js never type-checks). */
  readonly typecheck?: false;
  readonly allowedHosts?: string[];
  readonly config?: Record<string, string>;
  /** The clock grant: `extism call` gives every plugin the real clock; hookbox only when granted. */
  readonly clock?: boolean;
  readonly hostFunctions?: boolean;
  /** Exports the build must produce (examples the Makefile builds but never calls). */
  readonly exports?: string[];
  readonly calls: readonly ExampleCall[];
}

const PASSED = 'all tests passed';
const passes = (name: string): Example => ({ name, entry: 'script.js', calls: [{ export: 'greet', expect: { anywhere: PASSED } }] });

/** js-pdk's examples folder, in the order its Makefile tests them. */
const EXAMPLES: readonly Example[] = [
  { name: 'simple_js', entry: 'script.js', calls: [{ export: 'greet', input: 'Benjamin', expect: { output: 'Hello, Benjamin!' } }] },
  {
    name: 'bundled',
    entry: 'src/index.ts',
    npm: true,
    allowedHosts: ['example.com'],
    calls: [{ export: 'greet', input: 'Benjamin', expect: { output: /^Hello, Benjamin \(or is it MAYBESteve\?\?\?\) aaa [\s\S]*Example Domain[\s\S]*KEY: unknown$/ } }],
  },
  { name: 'host_funcs', entry: 'script.js', hostFunctions: true, calls: [{ export: 'greet', input: 'Benjamin', expect: { output: 'Hello, Benjamin!', log: 'All tests passed!' } }] },
  {
    name: 'react',
    entry: 'src/index.tsx',
    npm: true,
    // Not even under its own tsconfig.json: no `jsx` option, and `APP_STATE.settings.backgroundColor` on `{}` (TS2339).
    typecheck: false,
    calls: [
      { export: 'render', expect: { output: '<div style="background-color:lightblue"><p>Hello</p></div>' } },
      { export: 'setState', input: '{"action": "SET_SETTING", "payload": { "backgroundColor": "tomato" }}', expect: { output: '<div style="background-color:tomato"><p>Hello</p></div>' } },
      { export: 'render', expect: { output: '<div style="background-color:tomato"><p>Hello</p></div>' } },
    ],
  },
  { name: 'exception', entry: 'script.js', calls: [{ export: 'greet', input: 'Benjamin', expect: { fault: 'shibboleth' } }] },
  { name: 'console', entry: 'script.js', calls: [{ export: 'greet', input: 'Benjamin', expect: { log: 'This is a string Hello, World!' } }] },
  { name: 'base64', entry: 'script.js', calls: [{ export: 'greet', input: 'Benjamin', expect: { output: 'Hello, Benjamin', log: 'decoded string: Hello 🌍 World!🌍' } }] },
  { name: 'try-catch', entry: 'script.js', calls: [{ export: 'greet', input: 'Benjamin', expect: { log: 'got error' } }] },
  passes('atob_btoa'),
  passes('structured_clone'),
  // It checks that performance.timeOrigin is after 2020: real time, which hookbox gives only with the clock grant.
  { ...passes('perf'), clock: true },
  passes('console_extra'),
  passes('encode_into'),
  { ...passes('fetch'), allowedHosts: ['example.com'] },
  passes('crypto'),
  passes('compat'),
  passes('event'),
  passes('console_table'),
  passes('subtle_digest'),
  passes('buffer'),
  { ...passes('buffer_npm'), entry: 'src/index.js', npm: true },
  { name: 'async_exception', entry: 'script.js', calls: [{ export: 'greet', expect: { fault: 'not a function', notFault: 'unreachable' } }] },
  // Built by the Makefile, never called: typed (non-plugin) exports.
  { name: 'exports', entry: 'script.js', exports: ['add3', 'appendString'], calls: [] },
  // The Makefile's `kitchen` target.
  { name: 'kitchen-sink', entry: 'src/index.ts', npm: true, allowedHosts: ['*'], config: { last_name: 'Manuel' }, calls: [{ export: 'greet', input: 'Steve', expect: { output: 'Hello, Steve Manuel' } }] },
];

/** The host side of `host_funcs`: what js-pdk's Go host (examples/host_funcs/main.go) answers. */
const HOST_FUNCTIONS = `
export function capitalize(context, offset) {
  const text = context.read(offset).text();
  return context.store(text.replace(/\\b\\w/g, (c) => c.toUpperCase()));
}
export function floatInputs(_context, f64, f32) {
  if (typeof f64 !== 'number' || typeof f32 !== 'number') throw new Error('floatInputs: expected two floats');
  return 2147483647;
}
export function floatOutput(_context, i32) {
  if (i32 !== 2147483647) throw new Error('floatOutput: unexpected ' + i32);
  return 9007199254740.125;
}
export function voidInputs(_context, i32, i64, f32, f64, extra) {
  if (i32 !== 2147483647 || BigInt(i64) !== 9223372036854775807n || Math.abs(f32 - 314567.5) > 0.0001 || Math.abs(f64 - 9007199254740.125) > 0.0001 || extra !== 2147483647) {
    throw new Error('voidInputs: unexpected ' + [i32, i64, f32, f64, extra].join(', '));
  }
}
`;

const STAND_IN_NAMES = ['example.com', 'postman-echo.com'];

const { values, positionals } = parseArgs({ allowPositionals: true, options: { only: { type: 'string' }, 'stand-in': { type: 'boolean' }, 'in-namespace': { type: 'boolean' } } });
const checkout = positionals[0];
if (checkout === undefined || !existsSync(join(checkout, 'examples'))) {
  console.error('usage: npx tsx scripts/js-pdk-examples.ts <js-pdk checkout> [--only name,name] [--stand-in]\n(the checkout must hold examples/)');
  process.exit(2);
}

if (values['stand-in'] === true && values['in-namespace'] !== true) process.exit(reRunWithStandIns());
await main(resolve(checkout));

/** Re-runs this script in a mount namespace whose /etc/hosts sends the examples' hosts to 127.0.0.1. */
function reRunWithStandIns(): number {
  const dir = mkdtempSync(join(tmpdir(), 'hookbox-js-pdk-hosts-'));
  const hosts = join(dir, 'hosts');
  writeFileSync(hosts, `127.0.0.1 localhost ${STAND_IN_NAMES.join(' ')}\n::1 localhost\n`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=postman-echo.com', '-addext', `subjectAltName=${STAND_IN_NAMES.map((n) => `DNS:${n}`).join(',')}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const args = [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--in-namespace'];
  const inner = `mount --bind ${JSON.stringify(hosts)} /etc/hosts && exec ${[process.execPath, ...args].map((a) => JSON.stringify(a)).join(' ')}`;
  const unshare = process.getuid?.() === 0 ? ['--mount'] : ['-r', '--mount'];
  const run = spawnSync('unshare', [...unshare, 'sh', '-c', inner], { stdio: 'inherit', env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem'), HOOKBOX_JS_PDK_STAND_IN: dir } });
  rmSync(dir, { recursive: true, force: true });
  if (run.error !== undefined) console.error(`--stand-in needs unshare (util-linux): ${run.error.message}`);
  return run.status ?? 1;
}

/** Our stand-ins for example.com (a page) and postman-echo.com (`POST /post` echoes the body as `data`). */
async function serveStandIns(dir: string): Promise<() => void> {
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/post') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: Buffer.concat(chunks).toString('utf8') }));
      } else {
        response.setHeader('content-type', 'text/html');
        response.end('<html><head><title>Example Domain</title></head><body><h1>Example Domain</h1><p>hookbox stand-in</p></body></html>');
      }
    });
  };
  const plain = createHttpServer(answer);
  const secure = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, answer);
  await Promise.all([new Promise<void>((ok, fail) => plain.once('error', fail).listen(80, '127.0.0.1', ok)), new Promise<void>((ok, fail) => secure.once('error', fail).listen(443, '127.0.0.1', ok))]);
  return () => {
    plain.close();
    secure.close();
  };
}

/** The example's own npm dependencies, without js-pdk's local-path one (`../../crates/...`). */
function installDependencies(dir: string): void {
  const file = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  for (const group of [manifest.dependencies, manifest.devDependencies]) {
    for (const [name, spec] of Object.entries(group ?? {})) if (spec.startsWith('.') || spec.startsWith('file:')) delete group![name];
  }
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  rmSync(join(dir, 'package-lock.json'), { force: true });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

function matches(text: string, want: string | RegExp): boolean {
  return typeof want === 'string' ? text.includes(want) : want.test(text);
}

/** Why a call does not answer what js-pdk expects, or undefined when it does. */
function judge(call: ExampleCall, outcome: ExportCallOutcome, logs: string): string | undefined {
  const { output, log, anywhere, fault, notFault } = call.expect;
  if (fault !== undefined) {
    if (outcome.type !== 'fault') return `${call.export}: expected a fault with "${fault}", got an answer`;
    const message = `${outcome.fault.message} ${logs}`;
    if (!message.includes(fault)) return `${call.export}: fault without "${fault}": ${outcome.fault.kind}: ${outcome.fault.message.slice(0, 200)}`;
    if (notFault !== undefined && message.includes(notFault)) return `${call.export}: fault names "${notFault}"`;
    return undefined;
  }
  if (outcome.type === 'fault') return `${call.export}: ${outcome.fault.kind}: ${outcome.fault.message.slice(0, 300)}\nlogs: ${logs.slice(-900)}`;
  const text = outcome.output === null ? '' : new TextDecoder().decode(outcome.output);
  if (output !== undefined && !matches(text, output)) return `${call.export}: output ${JSON.stringify(text.slice(0, 200))} lacks ${String(output)}`;
  if (log !== undefined && !logs.includes(log)) return `${call.export}: no log line with "${log}"`;
  // The Makefile greps the CLI's whole output, the plugin's output and its logs together.
  if (anywhere !== undefined && !`${text}\n${logs}`.includes(anywhere)) return `${call.export}: neither output nor logs say "${anywhere}": ${JSON.stringify(`${text}\n${logs}`.slice(-300))}`;
  return undefined;
}

async function main(root: string): Promise<void> {
  const only = values.only?.split(',');
  const standIns = process.env.HOOKBOX_JS_PDK_STAND_IN;
  const stopStandIns = standIns === undefined ? () => {} : await serveStandIns(standIns);
  const work = mkdtempSync(join(tmpdir(), 'hookbox-js-pdk-'));
  const logs: HookLogEntry[] = [];
  const runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
  const rows: { name: string; ok: boolean; why: string }[] = [];
  try {
    for (const example of EXAMPLES.filter((e) => only === undefined || only.includes(e.name))) {
      const dir = join(work, example.name);
      cpSync(join(root, 'examples', example.name), dir, { recursive: true });
      const why = await runExample(example, dir, runner, logs).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      rows.push({ name: example.name, ok: why === undefined, why: why ?? '' });
      const detail = (why ?? '').slice(0, 1500).replaceAll('\n', '\n      ');
      console.log(`${why === undefined ? 'pass' : 'FAIL'}  ${example.name.padEnd(18)} ${detail}`);
    }
  } finally {
    await runner.close();
    stopStandIns();
    rmSync(work, { recursive: true, force: true });
  }
  const passed = rows.filter((r) => r.ok).length;
  console.log(`\n${passed} of ${rows.length} js-pdk examples build with hookbox unchanged and answer what js-pdk's Makefile expects`);
  process.exitCode = passed === rows.length ? 0 : 1;
}

async function runExample(example: Example, dir: string, runner: HookRunner, logs: HookLogEntry[]): Promise<string | undefined> {
  if (example.npm === true) installDependencies(dir);
  const built = await buildHook({ entry: join(dir, example.entry), outFile: join(dir, 'out', 'plugin.wasm'), ...(example.typecheck === false && { typecheck: false }) }).catch((error: unknown) => error as Error);
  if (built instanceof Error) return `build: ${built.message}`;
  const missing = (example.exports ?? []).filter((name) => !built.exports.includes(name));
  if (missing.length > 0) return `build: exports ${missing.join(', ')} missing (has ${built.exports.join(', ')})`;
  if (example.calls.length === 0) return undefined;
  let hostFunctions: string | undefined;
  if (example.hostFunctions === true) {
    writeFileSync(join(dir, 'host-functions.mjs'), HOST_FUNCTIONS);
    hostFunctions = pathToFileURL(join(dir, 'host-functions.mjs')).href;
  }
  const hook = await runner.load({
    name: example.name,
    wasm: built.wasmPath,
    plainExports: [...new Set(example.calls.map((c) => c.export))],
    quarantineAfter: 1000,
    limits: { timeoutMs: 30_000 },
    ...(example.config !== undefined && { config: example.config }),
    ...(hostFunctions !== undefined && { hostFunctions }),
    capabilities: { ...(example.allowedHosts !== undefined && { allowedHosts: example.allowedHosts }), ...(example.clock === true && { clock: true }) },
  });
  try {
    for (const call of example.calls) {
      logs.length = 0;
      const outcome = await hook.callExport(call.export, new TextEncoder().encode(call.input ?? ''), 'js-pdk-examples');
      const why = judge(call, outcome, logs.map((entry) => entry.message).join('\n'));
      if (why !== undefined) return why;
    }
    return undefined;
  } finally {
    await hook.close();
  }
}
