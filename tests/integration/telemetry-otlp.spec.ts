/**
 * The real CLI exporting OpenTelemetry over OTLP/HTTP (JSON) to a receiver on
 * 127.0.0.1 (`tests/helpers/otlp-receiver.ts`): the demo session — its
 * workspace, six example hooks, script and prompts, run by `hookbox run` —
 * sends spans and metrics that agree with its session log; `hookbox serve` flushes
 * its decisions' spans when it stops on SIGTERM. Then the switches:
 * `OTEL_SDK_DISABLED=true` sends nothing, and an exporter hookbox cannot
 * honour is refused with exit 2 naming the variable.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HOOK_ORDER, DEMO_PROMPTS, DEMO_SCRIPT, type DemoHookName, demoConfig, writeDemoWorkspace } from '../../host/cli/demo/scenario.ts';
import { type SessionEvent, readSessionLog } from '../../host/log/index.ts';
import { ATTR, METRIC, SPAN } from '../../host/telemetry/index.ts';
import { exampleManifest } from '../helpers/examples.ts';
import { type OtlpReceiver, type ReceivedPoint, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.ts';
import { type TestWorkspace, makeWorkspace } from '../helpers/session.ts';

const BIN = fileURLToPath(new URL('../../host/cli/hookbox.mjs', import.meta.url));

type HookInvoke = Extract<SessionEvent, { type: 'hook/invoke' }>;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The child's environment: this one without its own OTEL_* (if any), plus the test's. */
function childEnv(otel: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_')));
  return { ...env, ...otel, NO_COLOR: '1' };
}

/** The bin, run asynchronously: the receiver answers from this process's event loop meanwhile. */
function hookbox(args: readonly string[], otel: Record<string, string>): Promise<Ran> {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(otel), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let receiver: OtlpReceiver;
let workspace: TestWorkspace;
let demo: Ran;
let invokes: HookInvoke[];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  workspace = makeWorkspace('hookbox-otlp-');
  // The demo session as `hookbox demo` lays it out, with generous timeouts:
  // a loaded machine must not turn a hook's instantiation into a load error.
  writeDemoWorkspace(workspace.dir);
  const manifests = Object.fromEntries(DEMO_HOOK_ORDER.map((name) => [name, exampleManifest(name)])) as Record<DemoHookName, string>;
  const config = join(workspace.dir, 'hookbox.config.json');
  writeFileSync(config, JSON.stringify({ ...(demoConfig(manifests) as object), defaults: { timeoutMs: 30_000 } }));
  const script = join(workspace.dir, 'script.json');
  writeFileSync(script, JSON.stringify(DEMO_SCRIPT));
  const log = join(workspace.dir, 'session.jsonl');
  demo = await hookbox(['run', '--config', config, '--script', script, '--cwd', workspace.dir, '--log', log, '--max-continuations', '2', ...DEMO_PROMPTS], {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'hookbox-otlp-test',
  });
  invokes = existsSync(log) ? readSessionLog(log).events.filter((event): event is HookInvoke => event.type === 'hook/invoke') : [];
}, 300_000);

afterAll(async () => {
  await receiver?.close();
  workspace?.dispose();
});

const children = (parent: ReceivedSpan | undefined): ReceivedSpan[] => receiver.spans.filter((span) => parent !== undefined && span.parentSpanId === parent.spanId);
const parentOf = (span: ReceivedSpan): ReceivedSpan | undefined => receiver.spans.find((other) => other.spanId === span.parentSpanId);

/** The last exported value of each point of a metric (sums are cumulative), keyed by its attributes. */
function lastPoints(name: string): Map<string, ReceivedPoint> {
  const out = new Map<string, ReceivedPoint>();
  for (const point of receiver.points.filter((p) => p.metric === name)) out.set(JSON.stringify(point.attributes), point);
  return out;
}

/** Counts of the session log's invocations by a key. */
function tally(key: (event: HookInvoke) => string, amount: (event: HookInvoke) => number = () => 1): Map<string, number> {
  const out = new Map<string, number>();
  for (const event of invokes) out.set(key(event), (out.get(key(event)) ?? 0) + amount(event));
  return out;
}

describe('the demo session through `hookbox run`, exporting OTLP/HTTP JSON to a loopback receiver', () => {
  it('runs the session and every export is accepted', () => {
    expect(demo.stderr).not.toMatch(/opentelemetry (error|warn)/);
    expect(demo.code, demo.stderr).toBe(0);
    expect(invokes.length).toBeGreaterThan(20);
    expect(receiver.rejected).toEqual([]);
    expect(receiver.spans.length).toBeGreaterThan(0);
    expect(receiver.points.length).toBeGreaterThan(0);
  });

  it('names the service from OTEL_SERVICE_NAME and the scope hookbox', () => {
    expect(new Set(receiver.spans.map((span) => span.resource['service.name']))).toEqual(new Set(['hookbox-otlp-test']));
    expect(new Set(receiver.points.map((point) => point.resource['service.name']))).toEqual(new Set(['hookbox-otlp-test']));
    expect(new Set(receiver.spans.map((span) => span.scope))).toEqual(new Set(['hookbox']));
  });

  it('has a span per turn with how it ended', () => {
    const turns = receiver.spans.filter((span) => span.name === SPAN.turn).map((span) => [span.attributes[ATTR.turn], span.attributes[ATTR.turnEndReason], span.attributes[ATTR.turnSteps]]);
    expect(turns.sort()).toEqual([
      [1, 'completed', 6],
      [2, 'completed', 2],
      [3, 'rejected', 0],
    ]);
  });

  it('shows the denied rm -rf: turn 1 → a pre-execute dispatch ending deny → guard-bash’s deny', () => {
    const turn1 = receiver.spans.find((span) => span.name === SPAN.turn && span.attributes[ATTR.turn] === 1);
    const denied = children(turn1).filter((span) => span.attributes[ATTR.seam] === 'tools/pre-execute' && span.attributes[ATTR.decisionAction] === 'deny');
    expect(denied.length).toBeGreaterThanOrEqual(1);
    const deniers = denied.flatMap(children).filter((span) => span.attributes[ATTR.appliedAction] === 'deny');
    expect(deniers.map((span) => span.attributes[ATTR.hookName])).toContain('guard-bash');
  });

  it('shows the blocked prompt: turn 3 → a prompt-submit dispatch ending block → prompt-guard’s block', () => {
    const turn3 = receiver.spans.find((span) => span.name === SPAN.turn && span.attributes[ATTR.turn] === 3);
    const [blocked] = children(turn3).filter((span) => span.attributes[ATTR.decisionAction] === 'block');
    expect(blocked?.attributes[ATTR.seam]).toBe('agent/prompt-submit');
    expect(children(blocked).map((span) => [span.attributes[ATTR.hookName], span.attributes[ATTR.appliedAction]])).toContainEqual(['prompt-guard', 'block']);
  });

  it('has one hook-call span per audited invocation, each under a dispatch of its seam, each dispatch under a turn or a root', () => {
    const calls = receiver.spans.filter((span) => span.name === SPAN.hookCall);
    expect(calls).toHaveLength(invokes.length);
    const bySpans = new Map<string, number>();
    for (const span of calls) {
      const key = `${String(span.attributes[ATTR.hookName])} ${String(span.attributes[ATTR.seam])} ${String(span.attributes[ATTR.outcome])}`;
      bySpans.set(key, (bySpans.get(key) ?? 0) + 1);
    }
    expect(bySpans).toEqual(tally((event) => `${event.hook} ${event.seam} ${event.outcome}`));
    expect(new Set(calls.map((span) => span.attributes[ATTR.hookName]))).toEqual(new Set(['session-context', 'prompt-guard', 'guard-bash', 'secret-redactor', 'test-gate', 'audit-trail']));
    for (const span of calls) {
      const dispatch = parentOf(span);
      expect(dispatch?.name).toBe(SPAN.dispatch);
      expect(dispatch?.attributes[ATTR.seam]).toBe(span.attributes[ATTR.seam]);
      expect(span.attributes[ATTR.hookDigest]).toMatch(/^[0-9a-f]{64}$/);
    }
    for (const dispatch of receiver.spans.filter((span) => span.name === SPAN.dispatch)) {
      const parent = parentOf(dispatch);
      // Session start and session end (fired by Session.close, issue #51) are outside any turn: roots.
      if (dispatch.attributes[ATTR.seam] === 'agent/session-start' || dispatch.attributes[ATTR.seam] === 'agent/session-end') expect(dispatch.parentSpanId).toBeUndefined();
      else expect(parent?.name).toBe(SPAN.turn);
    }
  });

  it('exports the hook-call counter and the latency histogram matching the session log', () => {
    const calls = new Map([...lastPoints(METRIC.hookCalls).values()].map((p) => [`${String(p.attributes[ATTR.hookName])} ${String(p.attributes[ATTR.seam])} ${String(p.attributes[ATTR.outcome])}`, p.value]));
    expect(calls).toEqual(tally((event) => `${event.hook} ${event.seam} ${event.outcome}`));
    const histogram = [...lastPoints(METRIC.hookDuration).values()];
    expect(histogram.every((p) => p.type === 'histogram' && p.unit === 'us')).toBe(true);
    const key = (p: ReceivedPoint) => `${String(p.attributes[ATTR.hookName])} ${String(p.attributes[ATTR.seam])}`;
    expect(new Map(histogram.map((p) => [key(p), p.count]))).toEqual(tally((event) => `${event.hook} ${event.seam}`));
    expect(new Map(histogram.map((p) => [key(p), p.sum]))).toEqual(tally((event) => `${event.hook} ${event.seam}`, (event) => event.durationUs));
    // No hook faulted in the demo: the fault counter has no points.
    expect(lastPoints(METRIC.hookFaults).size).toBe(0);
  });
});

/** Posts one Claude Code event to `hookbox serve`'s unix socket; resolves with the status. */
function postToSocket(socketPath: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/hooks/claude-code', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hookbox serve exporting OTLP/HTTP', () => {
  it('flushes the spans and metrics of its decisions when it stops on SIGTERM', async () => {
    const local = await startOtlpReceiver();
    const scratch = makeWorkspace('hookbox-otlp-serve-');
    try {
      const config = join(scratch.dir, 'hookbox.config.json');
      writeFileSync(config, JSON.stringify({ hooks: [{ name: 'guard-bash', manifest: exampleManifest('guard-bash'), timeoutMs: 30_000 }] }));
      const socket = join(scratch.dir, 'run', 'serve.sock');
      const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--socket', socket, '--log-dir', join(scratch.dir, 'logs')], {
        env: childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: local.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('listening on')) resolve();
        });
        child.on('close', () => reject(new Error(`hookbox serve exited: ${stderr}`)));
      });
      const body = JSON.stringify({
        session_id: 'otel-serve-1',
        transcript_path: '/dev/null',
        cwd: scratch.dir,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /', description: 'x' },
        tool_use_id: 'toolu_1',
      });
      expect(await postToSocket(socket, body)).toBe(200);
      // Nothing is exported before the flush at exit (the batch delay is 5 s, the metric interval 60 s).
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const dispatch = local.spans.find((span) => span.name === SPAN.dispatch && span.attributes[ATTR.seam] === 'tools/pre-execute');
      expect(dispatch?.attributes).toMatchObject({ [ATTR.decisionAction]: 'deny', [ATTR.hookCount]: 1 });
      expect(String(dispatch?.attributes[ATTR.sessionId])).toContain('otel-serve-1');
      expect(local.spans.filter((span) => span.parentSpanId === dispatch?.spanId).map((span) => [span.attributes[ATTR.hookName], span.attributes[ATTR.appliedAction]])).toEqual([['guard-bash', 'deny']]);
      expect(
        local.points.filter((point) => point.metric === METRIC.hookCalls && point.attributes[ATTR.seam] === 'tools/pre-execute').map((point) => point.value),
      ).toEqual([1]);
    } finally {
      await local.close();
      scratch.dispose();
    }
  }, 120_000);
});

/** `hookbox run` of a one-step scripted session with these OTEL_* (given the receiver's URL); what the receiver got. */
async function scriptedRun(otel: (url: string) => Record<string, string>): Promise<{ ran: Ran; received: OtlpReceiver }> {
  const received = await startOtlpReceiver();
  const scratch = makeWorkspace('hookbox-otlp-run-');
  try {
    const script = join(scratch.dir, 'script.json');
    writeFileSync(script, JSON.stringify({ steps: [{ text: 'hello' }] }));
    return { ran: await hookbox(['run', '--cwd', scratch.dir, '--script', script, 'hi'], otel(received.url)), received };
  } finally {
    await received.close();
    scratch.dispose();
  }
}

describe('the OTEL_* switches, with `hookbox run`', () => {
  it('OTEL_SDK_DISABLED=true exports nothing even with an endpoint set', async () => {
    const { ran, received } = await scriptedRun((url) => ({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }));
    expect(ran.code).toBe(0);
    expect(received.spans).toEqual([]);
    expect(received.points).toEqual([]);
    expect(received.rejected).toEqual([]);
  });

  it('the same run without OTEL_SDK_DISABLED exports its turn (traces only, as asked)', async () => {
    const { ran, received } = await scriptedRun((url) => ({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/v1/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    }));
    expect(ran.code).toBe(0);
    expect(received.spans.filter((span) => span.name === SPAN.turn).map((span) => span.attributes[ATTR.turnEndReason])).toEqual(['completed']);
    expect(received.points).toEqual([]);
  });

  it('an exporter hookbox does not ship is exit 2 with one line naming the variable', async () => {
    const ran = await hookbox(['run', '--script', '/nonexistent.json', 'hi'], { OTEL_TRACES_EXPORTER: 'zipkin' });
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split('\n')).toEqual(['hookbox: OTEL_TRACES_EXPORTER=zipkin: hookbox exports "otlp" (OTLP/HTTP) or "none", not "zipkin"']);
  });
});
