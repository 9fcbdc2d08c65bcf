// setTimeout/setInterval/clearTimeout/clearInterval, queueMicrotask and
// performance inside the call, on a virtual clock. Nothing waits: when the
// call has no promise job left, the engine runs the pending timer due first
// (then the earliest scheduled), moving the clock to its time (timers.c,
// settle.c). A call ends only when no timer is left, so none outlives it, and
// an interval never cleared runs until the instruction budget ends the call.
//
// performance.now(): with the clock grant, real milliseconds since the
// instance first read the clock; without it, virtual time: the instance's
// instruction ticks at 10 ns each. Either way plus the delays of the timers
// that have fired, so the time around `await sleep(100)` grows by 100.
(function (g) {
  'use strict';
  const hb = g.__hb;
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  let clock = 0; // ms the fired timers moved the virtual clock
  let lastId = 0;
  let lastSeq = 0;
  const queue = []; // { id, due, seq, callback, args, every }

  function schedule(callback, delay, args, repeat, what) {
    if (typeof callback !== 'function') throw new TypeError(what + ': the callback must be a function (a string of code is not evaluated)');
    const ms = Number(delay) > 0 ? Number(delay) : 0;
    const id = ++lastId;
    queue.push({ id, due: clock + ms, seq: ++lastSeq, callback, args, every: repeat ? ms : -1 });
    return id;
  }
  function clear(id) {
    const at = queue.findIndex((t) => t.id === id);
    if (at >= 0) queue.splice(at, 1);
  }

  // The engine's step: runs the timer due first (ties: the one scheduled first).
  function runNext() {
    let at = 0;
    for (let i = 1; i < queue.length; i++) {
      const t = queue[i];
      if (t.due < queue[at].due || (t.due === queue[at].due && t.seq < queue[at].seq)) at = i;
    }
    const timer = queue[at];
    if (timer.due > clock) clock = timer.due;
    if (timer.every < 0) queue.splice(at, 1);
    else Object.assign(timer, { due: clock + timer.every, seq: ++lastSeq }); // before the callback, which may clear it
    timer.callback(...timer.args);
  }
  hb.setTimers(queue, runNext);

  define('setTimeout', function setTimeout(callback, delay, ...args) {
    return schedule(callback, delay, args, false, 'setTimeout');
  });
  define('setInterval', function setInterval(callback, delay, ...args) {
    return schedule(callback, delay, args, true, 'setInterval');
  });
  define('clearTimeout', function clearTimeout(id) {
    clear(id);
  });
  define('clearInterval', function clearInterval(id) {
    clear(id);
  });
  // A promise job: runs after the current script, before any timer; a throw fails the call.
  define('queueMicrotask', function queueMicrotask(callback) {
    hb.queueMicrotask(callback);
  });

  const base = () => {
    const real = hb.monoMs();
    return real >= 0 ? real : hb.ticks() / 1e5;
  };
  const performance = {
    now: () => base() + clock,
    get timeOrigin() {
      return hb.timeOrigin();
    },
    toJSON() {
      return { timeOrigin: this.timeOrigin };
    },
  };
  define('performance', performance);
})(globalThis);
