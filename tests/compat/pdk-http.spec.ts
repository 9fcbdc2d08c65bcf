// js-pdk's `Http.request` in an unchanged CommonJS plugin, served by the real
// runner (real worker threads, the helper thread, real fetch) against a real
// node:http server on 127.0.0.1: a granted host answers as js-pdk documents
// ({status, body, headers}); anything else is refused before a byte leaves;
// a response over the cap and a server that never answers are the guest's
// error and the hook's timeout, and the next call still works.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import type { HookLogEntry } from '../../host/runner/types.ts';
import type { BuildHookResult } from '../../pdk/compiler/index.ts';
import { tempDir } from '../pdk/support.ts';
import { type LoadedPlugin, loadPlugin, tryBuild, writeProject } from './pdk-support.ts';

const HTTP_PLUGIN = `// js-pdk's documented shape: Http.request over the globals, module.exports at the end.
function fetch_json() {
  const req = JSON.parse(Host.inputString());
  const res = Http.request({ url: req.url, method: req.method || 'GET', headers: { 'X-Test': 'from-plugin' } }, req.body);
  Host.outputString(JSON.stringify(res));
}

function fetch_caught() {
  try {
    const res = Http.request({ url: Host.inputString() });
    Host.outputString('status ' + res.status);
  } catch (e) {
    Host.outputString('caught: ' + e.message);
  }
}

function fetch_request() {
  try {
    const res = Http.request(JSON.parse(Host.inputString()));
    Host.outputString('status ' + res.status);
  } catch (e) {
    Host.outputString('caught: ' + e.message);
  }
}

module.exports = { fetch_json, fetch_caught, fetch_request };
`;

const BIG_BYTES = 2 * 1_048_576;

let dir: string;
let cleanup: () => Promise<void>;
let built: BuildHookResult | Error | undefined;
let runner: HookRunner;
let server: Server;
let origin: string;
const logs: HookLogEntry[] = [];
const plugins: LoadedPlugin[] = [];
/** Every request the server received, by path. */
const seen: string[] = [];
/** Requests to /hang, kept open; each resolves `closed` when its socket goes. */
const hanging: { closed: Promise<void> }[] = [];

function handle(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  seen.push(req.url ?? '');
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    switch (req.url) {
      case '/hello':
        res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'compat-test' });
        res.end(JSON.stringify({ hello: 'world' }));
        return;
      case '/echo':
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end(`${req.method} ${req.headers['x-test']} ${Buffer.concat(chunks).toString()}`);
        return;
      case '/empty':
        res.writeHead(204, { 'x-empty': 'yes' });
        res.end();
        return;
      case '/big':
        // Chunked (no content-length): the cap is enforced while reading, not only from the header.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < BIG_BYTES / 65_536; i++) res.write(Buffer.alloc(65_536, 0x61));
        res.end();
        return;
      case '/redirect':
        res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/hello` });
        res.end();
        return;
      case '/hang':
        hanging.push({ closed: new Promise((resolve) => res.on('close', () => resolve())) });
        return;
      default:
        res.writeHead(404);
        res.end('not found');
    }
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeProject(dir, { 'http/package.json': JSON.stringify({ name: 'http-plugin', type: 'module' }), 'http/index.js': HTTP_PLUGIN });
  built = await tryBuild(join(dir, 'http/index.js'), join(dir, 'out', 'http', 'plugin.wasm'));
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  runner = await HookRunner.start({ workers: 1, spareWorker: false, onLog: (entry) => logs.push(entry) });
}, 900_000);

afterAll(async () => {
  for (const plugin of plugins) await plugin.hook.close();
  await runner?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await cleanup?.();
});

async function load(options: { allowedHosts?: string[]; timeoutMs?: number }): Promise<LoadedPlugin> {
  const plugin = await loadPlugin(runner, logs, built, { exports: ['fetch_json', 'fetch_caught', 'fetch_request'], ...options });
  plugins.push(plugin);
  return plugin;
}

describe('Http.request to a granted host', () => {
  it('builds unchanged', () => {
    if (built instanceof Error || built === undefined) throw built;
    expect(built.exports).toEqual(['fetch_caught', 'fetch_json', 'fetch_request']);
  });

  it('GET answers {status, body, headers} as js-pdk documents', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const res = JSON.parse((await plugin.text('fetch_json', JSON.stringify({ url: `${origin}/hello` }))) ?? '');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ hello: 'world' });
    expect(res.headers['x-served-by']).toBe('compat-test');
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('POST sends the method, the headers and the body', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const res = JSON.parse((await plugin.text('fetch_json', JSON.stringify({ url: `${origin}/echo`, method: 'post', body: 'payload ✓' }))) ?? '');
    expect(res).toMatchObject({ status: 201, body: 'POST from-plugin payload ✓' });
  });

  it('an empty body (204) is an empty string, headers kept', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const res = JSON.parse((await plugin.text('fetch_json', JSON.stringify({ url: `${origin}/empty` }))) ?? '');
    expect(res).toMatchObject({ status: 204, body: '', headers: { 'x-empty': 'yes' } });
  });

  it('a redirect is the answer, never followed to a host outside the grant', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const before = seen.length;
    const res = JSON.parse((await plugin.text('fetch_json', JSON.stringify({ url: `${origin}/redirect` }))) ?? '');
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^http:\/\/localhost:\d+\/hello$/);
    expect(seen.slice(before)).toEqual(['/redirect']);
  });

  it('a response over the cap (1 MiB) is a catchable error, not a crash; the next call works', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    expect(await plugin.text('fetch_caught', `${origin}/big`)).toBe(`caught: Http.request to ${origin}/big failed: the response body exceeds the 1048576-byte cap`);
    expect(await plugin.text('fetch_caught', `${origin}/hello`)).toBe('status 200');
  });

  it('a server that is not there is a catchable error naming why', async () => {
    // A port that was just free: listened on, then closed.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const text = await plugin.text('fetch_caught', `http://127.0.0.1:${port}/x`);
    expect(text).toMatch(new RegExp(`^caught: Http\\.request to http://127\\.0\\.0\\.1:${port}/x failed: fetch failed: .*ECONNREFUSED`));
  });
});

describe('Http.request to a host outside the grant', () => {
  it('is refused with the host named, nothing reaches the server, and the hook log says so', async () => {
    const plugin = await load({ allowedHosts: ['*.example.com', 'localhost'] });
    const before = seen.length;
    const logged = logs.length;
    expect(await plugin.text('fetch_caught', `${origin}/hello`)).toBe(
      `caught: Http.request to ${origin}/hello failed: host "127.0.0.1" is not in this hook's allowedHosts (granted: *.example.com, localhost)`,
    );
    expect(seen.length).toBe(before);
    expect(logs.slice(logged).map((entry) => entry.message)).toContain('Http.request denied: host "127.0.0.1" is not in this hook\'s allowedHosts (granted: *.example.com, localhost)');
  });

  it('a hook with no grant is refused too; an uncaught refusal is the plugin\'s own error', async () => {
    const plugin = await load({});
    const before = seen.length;
    const outcome = await plugin.call('fetch_json', JSON.stringify({ url: `${origin}/hello` }));
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('host "127.0.0.1" is not in this hook\'s allowedHosts (none are granted)');
    expect(seen.length).toBe(before);
  });

  it('only http: and https: URLs are served', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    expect(await plugin.text('fetch_caught', 'file:///etc/passwd')).toBe('caught: Http.request to file:///etc/passwd failed: only http: and https: URLs are served, not file:');
  });
});

describe('a malformed request from the guest', () => {
  it('is refused field by field before anything is sent', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'] });
    const before = seen.length;
    const ask = (request: unknown) => plugin.text('fetch_request', JSON.stringify(request));
    expect(await ask({ url: `${origin}/hello`, method: 'GET /x HTTP/1.1' })).toBe(`caught: Http.request to ${origin}/hello failed: the request's "method" is not an HTTP method name`);
    expect(await ask({ url: `${origin}/hello`, headers: { 'x-n': 5 } })).toBe(`caught: Http.request to ${origin}/hello failed: request header "x-n" is not a string`);
    expect(await ask({ url: 'not a url' })).toBe('caught: Http.request to not a url failed: "not a url" is not a URL');
    expect(await ask({ url: `${origin}/hello`, headers: { 'bad name': 'x' } })).toMatch(/^caught: Http\.request to .* failed: /);
    expect(seen.length).toBe(before);
  });
});

describe('a server that never answers', () => {
  it('is the hook\'s timeout fault at its deadline; the request goes with the worker; the next call works', async () => {
    const plugin = await load({ allowedHosts: ['127.0.0.1'], timeoutMs: 3000 });
    const outcome = await plugin.call('fetch_json', JSON.stringify({ url: `${origin}/hang` }));
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'timeout' } });
    expect(hanging).toHaveLength(1);
    // The helper thread died with its worker: the server sees the connection close.
    await hanging[0]!.closed;
    const res = JSON.parse((await plugin.text('fetch_json', JSON.stringify({ url: `${origin}/hello` }))) ?? '');
    expect(res.status).toBe(200);
  }, 60_000);
});
