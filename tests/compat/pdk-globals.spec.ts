// The web globals js-pdk ships, in unchanged CommonJS plugins (our own
// sources), built by `hookbox build` and served by the real runner: crypto
// from the host's randomness and digests checked against node:crypto;
// performance under the clock rule; timers and microtasks inside the call on
// a virtual clock; events; console's extras in the hook log; self, DOMException.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compatSuite, everyPluginBuilds, type LoadedPlugin } from './pdk-support.ts';

const CRYPTO_PLUGIN = `function random() {
  const bytes = new Uint8Array(32);
  const same = crypto.getRandomValues(bytes) === bytes;
  const wide = crypto.getRandomValues(new Uint32Array(4));
  let quota = 'none';
  try {
    crypto.getRandomValues(new Uint8Array(65537));
  } catch (e) {
    quota = e.name + ' ' + (e instanceof DOMException) + ' ' + e.code;
  }
  let kind = 'none';
  try {
    crypto.getRandomValues(new Float64Array(2));
  } catch (e) {
    kind = e.name;
  }
  Host.outputString(JSON.stringify({ same, bytes: Array.from(bytes), wide: Array.from(wide), quota, kind, uuids: [crypto.randomUUID(), crypto.randomUUID()] }));
}

async function digest() {
  const { algorithm, text, view } = JSON.parse(Host.inputString());
  const data = new TextEncoder().encode(text);
  const input = view ? data : data.buffer;
  const out = await crypto.subtle.digest(view ? { name: algorithm } : algorithm, input);
  Host.outputString(Array.from(new Uint8Array(out), (b) => (b < 16 ? '0' : '') + b.toString(16)).join(''));
}

function digest_unknown() {
  try {
    crypto.subtle.digest('MD5', new ArrayBuffer(0));
    Host.outputString('no throw');
  } catch (e) {
    Host.outputString(e.name + ': ' + e.message);
  }
}

module.exports = { random, digest, digest_unknown };
`;

const TIMERS_PLUGIN = `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function order() {
  const seen = [];
  setTimeout(() => seen.push('t20'), 20);
  setTimeout(() => seen.push('t10a'), 10);
  const gone = setTimeout(() => seen.push('cleared'), 5);
  setTimeout(() => {
    seen.push('t10b');
    queueMicrotask(() => seen.push('micro-in-t10b'));
    setTimeout(() => seen.push('t10b+0'), 0);
  }, 10);
  setTimeout(() => seen.push('t0'));
  queueMicrotask(() => seen.push('micro'));
  Promise.resolve().then(() => seen.push('then'));
  clearTimeout(gone);
  seen.push('sync');
  let ticks = 0;
  const every = setInterval((tag) => {
    seen.push(tag + ++ticks);
    if (ticks === 3) clearInterval(every);
  }, 7, 'i');
  setTimeout(() => Host.outputString(seen.join(',')), 100);
}

async function slept() {
  const before = performance.now();
  await sleep(250);
  const after = performance.now();
  Host.outputString(String(after - before >= 250));
}

function late() {
  setTimeout(() => Host.outputString('from the timer'), 50);
  Host.outputString('from the export');
}

function late_throw() {
  setTimeout(() => {
    throw new RangeError('thrown in a timer');
  }, 1);
}

function forever() {
  setInterval(() => {}, 10);
}

function schedule_then_throw() {
  setTimeout(() => Var.set('leaked', 'yes'), 1);
  throw new Error('the export failed');
}

function leaked() {
  Host.outputString(String(Var.getString('leaked')));
}

function clocks() {
  const a = performance.now();
  let s = 0;
  for (let i = 0; i < 10000; i++) s += i;
  const b = performance.now();
  Host.outputString(JSON.stringify({ a, b, s, origin: performance.timeOrigin, date: Date.now() }));
}

module.exports = { order, slept, late, late_throw, forever, schedule_then_throw, leaked, clocks };
`;

const MISC_PLUGIN = `function events() {
  const out = [];
  const target = new EventTarget();
  const first = (e) => out.push('first:' + e.type + ':' + (e.target === target) + ':' + e.eventPhase);
  target.addEventListener('ping', first);
  target.addEventListener('ping', first); // a duplicate is ignored
  target.addEventListener('ping', { handleEvent: (e) => out.push('object:' + e.detail.n) });
  target.addEventListener('ping', () => out.push('once'), { once: true });
  target.dispatchEvent(new CustomEvent('ping', { detail: { n: 1 } }));
  target.removeEventListener('ping', first);
  target.dispatchEvent(new CustomEvent('ping', { detail: { n: 2 } }));
  target.addEventListener('stop', (e) => { out.push('stop1'); e.stopImmediatePropagation(); });
  target.addEventListener('stop', () => out.push('stop2'));
  target.dispatchEvent(new Event('stop'));
  target.addEventListener('cancel', (e) => e.preventDefault());
  out.push('cancelable:' + target.dispatchEvent(new Event('cancel', { cancelable: true })));
  out.push('not-cancelable:' + target.dispatchEvent(new Event('cancel')));
  class Emitter extends EventTarget {}
  const emitter = new Emitter();
  emitter.addEventListener('x', (e) => out.push('subclass:' + (e.currentTarget === emitter)));
  emitter.dispatchEvent(new Event('x'));
  const ev = new Event('plain');
  out.push('defaults:' + [ev.bubbles, ev.cancelable, ev.defaultPrevented, ev.target, typeof ev.timeStamp].join('/'));
  Host.outputString(out.join(','));
}

function logs() {
  console.count();
  console.count('hits');
  console.count('hits');
  console.countReset('hits');
  console.count('hits');
  console.countReset('nobody');
  console.assert(true, 'not logged');
  console.assert(false, 'broken', { n: 1 });
  console.assert(false);
  console.group('outer');
  console.log('inside');
  console.group();
  console.info('two\\nlines');
  console.groupEnd();
  console.groupEnd();
  console.groupEnd();
  console.log('outside');
  console.table([{ name: 'a', age: 1 }, { name: 'b', city: 'x' }]);
  console.table([{ name: 'a', age: 1, city: 'y' }], ['city', 'name']);
  console.table([1, 'two']);
  console.table({ k: { v: 1 } });
  console.table([]);
  console.table('plain');
  console.dir({ deep: [1] });
  console.time('t');
  console.time('t');
  console.timeLog('t', 'step', 2);
  console.timeEnd('t');
  console.timeEnd('t');
  Host.outputString('logged');
}

function misc() {
  const e = new DOMException('gone', 'NotFoundError');
  let atobError = '';
  try {
    atob('!');
  } catch (err) {
    atobError = err.name + ':' + (err instanceof DOMException) + ':' + err.code;
  }
  Host.outputString([self === globalThis, typeof self.Host, e.name, e.message, e.code, e instanceof Error, new DOMException().name, atobError].join(','));
}

module.exports = { events, logs, misc };
`;

const SOURCES = { crypto: CRYPTO_PLUGIN, timers: TIMERS_PLUGIN, misc: MISC_PLUGIN };
const suite = compatSuite(
  Object.fromEntries(Object.entries(SOURCES).flatMap(([name, source]) => [[`${name}/package.json`, JSON.stringify({ name, type: 'module' })], [`${name}/index.js`, source]])),
  Object.keys(SOURCES).map((name) => `${name}/index.js`),
);
const { logs } = suite;

function load(name: keyof typeof SOURCES, exports: string[], options: { clock?: boolean; instructionBudget?: number; timeoutMs?: number } = {}): Promise<LoadedPlugin> {
  return suite.load(`${name}/index.js`, { exports, ...options });
}

/** What `session`'s calls logged since `from`, as "level message". */
const logged = (from: number, session: string) => logs.slice(from).filter((l) => l.session === session).map((l) => `${l.level} ${l.message}`);

describe('crypto', () => {
  it('getRandomValues fills in place from the host; quota and type errors are DOMExceptions; randomUUID is v4', async () => {
    const plugin = await load('crypto', ['random', 'digest', 'digest_unknown']);
    const a = JSON.parse((await plugin.text('random', '', 'crypto-a')) ?? '');
    const b = JSON.parse((await plugin.text('random', '', 'crypto-b')) ?? '');
    expect(a.same).toBe(true);
    expect(a.quota).toBe('QuotaExceededError true 22');
    expect(a.kind).toBe('TypeMismatchError');
    for (const uuid of [...a.uuids, ...b.uuids]) expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Two instances of one snapshot draw different bytes: from the host, not a generator frozen at build time.
    expect(new Set([...a.uuids, ...b.uuids]).size).toBe(4);
    expect(a.bytes).not.toEqual(b.bytes);
    expect(a.bytes.some((x: number) => x !== 0)).toBe(true);
    expect(a.wide.some((x: number) => x !== 0)).toBe(true);
  });

  it('subtle.digest answers SHA-1/256/384/512 as node:crypto does, across the padding edges', async () => {
    const plugin = await load('crypto', ['random', 'digest', 'digest_unknown']);
    const node = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' } as const;
    for (const length of [0, 3, 55, 56, 63, 64, 111, 112, 127, 128, 1000]) {
      const text = 'é'.repeat(length).slice(0, length);
      for (const [algorithm, name] of Object.entries(node)) {
        const view = length % 2 === 1;
        const answer = await plugin.text('digest', JSON.stringify({ algorithm: view ? algorithm.toLowerCase() : algorithm, text, view }));
        expect(answer, `${algorithm} of ${length} chars`).toBe(createHash(name).update(text).digest('hex'));
      }
    }
  });

  it('an unknown algorithm throws NotSupportedError, naming what is supported', async () => {
    const plugin = await load('crypto', ['random', 'digest', 'digest_unknown']);
    expect(await plugin.text('digest_unknown')).toBe('NotSupportedError: crypto.subtle.digest: unsupported algorithm "MD5" (supported: SHA-1, SHA-256, SHA-384, SHA-512)');
  });
});

describe('timers and microtasks, inside the call on a virtual clock', () => {
  it('run microtasks first, then timeouts by due time and scheduling order; intervals repeat until cleared', async () => {
    const plugin = await load('timers', ['order']);
    expect(await plugin.text('order')).toBe('sync,micro,then,t0,i1,t10a,t10b,micro-in-t10b,t10b+0,i2,t20,i3');
  });

  it('an async export awaiting a timer settles inside the call, the virtual clock moved by its delay', async () => {
    const plugin = await load('timers', ['slept']);
    expect(await plugin.text('slept')).toBe('true');
  });

  it('a timer pending when the export returns runs before the call ends', async () => {
    const plugin = await load('timers', ['late']);
    expect(await plugin.text('late')).toBe('from the timer');
  });

  it('a timer that throws is the call\'s plugin-error', async () => {
    const plugin = await load('timers', ['late_throw']);
    const outcome = await plugin.call('late_throw');
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('RangeError: thrown in a timer');
  });

  it('an interval never cleared ends as the instruction-budget timeout, not a hang', async () => {
    const plugin = await load('timers', ['forever', 'late'], { instructionBudget: 2_000_000 });
    const outcome = await plugin.call('forever', '', 'forever');
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'timeout' } });
    expect(outcome.type === 'fault' && outcome.fault.message).toContain('instruction budget');
    expect(await plugin.text('late', '', 'forever')).toBe('from the timer');
  });

  it('a timer scheduled by a call that failed never runs in a later call', async () => {
    const plugin = await load('timers', ['schedule_then_throw', 'leaked']);
    const outcome = await plugin.call('schedule_then_throw', '', 'leak');
    expect(outcome).toMatchObject({ type: 'fault', fault: { kind: 'plugin-error' } });
    expect(await plugin.text('leaked', '', 'leak')).toBe('null');
  });
});

describe('performance', () => {
  it('without the clock grant: virtual time from 0, deterministic per instance, monotonic', async () => {
    const plugin = await load('timers', ['clocks']);
    const first = JSON.parse((await plugin.text('clocks', '', 'virtual-a')) ?? '');
    const again = JSON.parse((await plugin.text('clocks', '', 'virtual-b')) ?? '');
    expect(first).toEqual(again); // a fresh instance each: the same ticks, the same times
    expect(first.a).toBeGreaterThanOrEqual(0);
    expect(first.a).toBeLessThan(1);
    expect(first.b).toBeGreaterThan(first.a);
    expect(first.origin).toBe(0);
    expect(first.date).toBe(0);
    const later = JSON.parse((await plugin.text('clocks', '', 'virtual-a')) ?? '');
    expect(later.a).toBeGreaterThan(first.b);
  });

  it('with the clock grant: real milliseconds since the instance first read the clock', async () => {
    const plugin = await load('timers', ['clocks'], { clock: true });
    const before = Date.now();
    const read = JSON.parse((await plugin.text('clocks', '', 'real')) ?? '');
    expect(read.a).toBeGreaterThanOrEqual(0);
    expect(read.b).toBeGreaterThanOrEqual(read.a);
    expect(read.origin).toBeGreaterThanOrEqual(before - 1);
    expect(read.date).toBeGreaterThanOrEqual(before - 1);
  });
});

describe('events, console, self, DOMException', () => {
  it('EventTarget, Event and CustomEvent dispatch as the DOM standard says for a flat target', async () => {
    const plugin = await load('misc', ['events', 'logs', 'misc']);
    expect(await plugin.text('events')).toBe(
      'first:ping:true:2,object:1,once,object:2,stop1,cancelable:false,not-cancelable:true,subclass:true,defaults:false/false/false//number',
    );
  });

  it('console\'s counters, assertions, groups, tables, dir and timers write to the hook log', async () => {
    const plugin = await load('misc', ['events', 'logs', 'misc']);
    const from = logs.length;
    expect(await plugin.text('logs', '', 'console')).toBe('logged');
    const lines = logged(from, 'console');
    expect(lines).toEqual([
      'info default: 1',
      'info hits: 1',
      'info hits: 2',
      'info hits: 1',
      "warn Count for 'nobody' does not exist",
      'error Assertion failed: broken {"n":1}',
      'error Assertion failed',
      'info outer',
      'info   inside',
      'info     two\n    lines',
      'info outside',
      'info (index)\tname\tage\tcity\n0\ta\t1\t\n1\tb\t\tx',
      'info (index)\tcity\tname\n0\ty\ta',
      'info (index)\tValues\n0\t1\n1\ttwo',
      'info (index)\tv\nk\t1',
      'info (empty array)',
      'info plain',
      'info {"deep":[1]}',
      expect.stringMatching(/^warn the hook read the clock without the clock grant: .*performance\.now\(\) counts virtual time/),
      "warn Timer 't' already exists",
      expect.stringMatching(/^info t: 0\.\d{3}ms step 2$/),
      expect.stringMatching(/^info t: 0\.\d{3}ms$/),
      "warn Timer 't' does not exist",
    ]);
  });

  it('self is globalThis; DOMException has name, message and code, and atob throws one', async () => {
    const plugin = await load('misc', ['events', 'logs', 'misc']);
    expect(await plugin.text('misc')).toBe('true,object,NotFoundError,gone,8,true,Error,InvalidCharacterError:true:5');
  });
});

everyPluginBuilds(suite);
