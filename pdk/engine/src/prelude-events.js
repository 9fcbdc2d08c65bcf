// Event, CustomEvent and EventTarget: a flat target (no tree, so no capture
// or bubbling phase), listeners called in the order added, each (type,
// callback, capture) once; `once`, `signal`-less options, handleEvent objects.
(function (g) {
  'use strict';
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  const DOMException = g.__hb.DOMException;
  const state = new WeakMap(); // event → its flags
  const flags = (event) => {
    const f = state.get(event);
    if (f === undefined) throw new TypeError('Illegal invocation: not an Event');
    return f;
  };

  class Event {
    constructor(type, init = {}) {
      if (arguments.length === 0) throw new TypeError("Event: the 'type' argument is required");
      const options = init === null || init === undefined ? {} : init;
      state.set(this, { type: String(type), bubbles: Boolean(options.bubbles), cancelable: Boolean(options.cancelable), composed: Boolean(options.composed), canceled: false, stop: false, stopNow: false, target: null, current: null, phase: 0, dispatching: false });
      Object.defineProperty(this, 'timeStamp', { value: g.performance.now(), enumerable: true });
    }
    get type() { return flags(this).type; }
    get bubbles() { return flags(this).bubbles; }
    get cancelable() { return flags(this).cancelable; }
    get composed() { return flags(this).composed; }
    get target() { return flags(this).target; }
    get currentTarget() { return flags(this).current; }
    get srcElement() { return flags(this).target; }
    get eventPhase() { return flags(this).phase; }
    get defaultPrevented() { return flags(this).canceled; }
    get returnValue() { return !flags(this).canceled; }
    get isTrusted() { return false; }
    get cancelBubble() { return flags(this).stop; }
    set cancelBubble(value) { if (value) flags(this).stop = true; }
    composedPath() { const f = flags(this); return f.dispatching && f.current !== null ? [f.current] : []; }
    preventDefault() { const f = flags(this); if (f.cancelable) f.canceled = true; }
    stopPropagation() { flags(this).stop = true; }
    stopImmediatePropagation() { const f = flags(this); f.stop = true; f.stopNow = true; }
  }
  Object.assign(Event, { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 });

  class CustomEvent extends Event {
    constructor(type, init = {}) {
      super(type, init);
      Object.defineProperty(this, 'detail', { value: init && init.detail !== undefined ? init.detail : null, enumerable: true });
    }
  }

  const listenersOf = new WeakMap(); // target → Map(type → [{ callback, capture, once, removed }])
  const captureOf = (options) => (typeof options === 'boolean' ? options : Boolean(options && options.capture));

  class EventTarget {
    constructor() {
      listenersOf.set(this, new Map());
    }
    addEventListener(type, callback, options) {
      if (callback === null || callback === undefined) return;
      const map = listenersOf.get(this);
      if (map === undefined) throw new TypeError('Illegal invocation: not an EventTarget');
      const name = String(type);
      const capture = captureOf(options);
      const list = map.get(name) || [];
      if (list.some((l) => l.callback === callback && l.capture === capture)) return;
      list.push({ callback, capture, once: typeof options === 'object' && options !== null && Boolean(options.once), removed: false });
      map.set(name, list);
    }
    removeEventListener(type, callback, options) {
      const map = listenersOf.get(this);
      const list = map && map.get(String(type));
      if (!list) return;
      const capture = captureOf(options);
      const at = list.findIndex((l) => l.callback === callback && l.capture === capture);
      if (at >= 0) {
        list[at].removed = true;
        list.splice(at, 1);
      }
    }
    dispatchEvent(event) {
      const f = flags(event);
      if (f.dispatching) throw new DOMException('dispatchEvent: the event is already being dispatched', 'InvalidStateError');
      const map = listenersOf.get(this);
      if (map === undefined) throw new TypeError('Illegal invocation: not an EventTarget');
      Object.assign(f, { target: this, current: this, phase: 2, dispatching: true, stop: false, stopNow: false });
      try {
        for (const l of (map.get(f.type) || []).slice()) {
          if (l.removed) continue;
          if (l.once) this.removeEventListener(f.type, l.callback, l.capture);
          if (typeof l.callback === 'function') l.callback.call(this, event);
          else if (typeof l.callback.handleEvent === 'function') l.callback.handleEvent(event);
          if (f.stopNow) break;
        }
      } finally {
        Object.assign(f, { current: null, phase: 0, dispatching: false });
      }
      return !f.canceled;
    }
  }
  define('Event', Event);
  define('CustomEvent', CustomEvent);
  define('EventTarget', EventTarget);
})(globalThis);
