// console: the hook's log (Extism levels), with the console API's counters,
// timers, groups, assertions and tables written to it as text lines.
(function (g) {
  'use strict';
  const hb = g.__hb;
  // Levels as in natives.c / extism.h: info 0, warn 1, error 2, debug 3.
  const INFO = 0;
  const WARN = 1;
  const ERROR = 2;
  const DEBUG = 3;

  function show(value) {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    if (typeof value === 'object' && value !== null) {
      try {
        return JSON.stringify(value);
      } catch {
        return String(value);
      }
    }
    return String(value);
  }
  const join = (args) => args.map(show).join(' ');

  // console.group indents what follows by two spaces per open group, every line of it.
  let indent = '';
  const write = (level, text) => hb.log(level, indent === '' ? text : text.replace(/^/gm, indent));
  const logAt = (level) => (...args) => write(level, join(args));

  const counts = new Map();
  const timers = new Map();
  const now = () => g.performance.now();
  const elapsed = (label) => label + ': ' + (now() - timers.get(label)).toFixed(3) + 'ms';

  function table(data, columns) {
    if (typeof data !== 'object' || data === null) return write(INFO, show(data));
    const indices = Array.isArray(data) ? data.map((_, i) => String(i)) : Object.keys(data);
    if (indices.length === 0) return write(INFO, Array.isArray(data) ? '(empty array)' : '(empty object)');
    const rows = indices.map((key) => data[key]);
    const isRecord = (row) => typeof row === 'object' && row !== null;
    let keys = [];
    for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    if (Array.isArray(columns)) keys = columns.map(String).filter((key) => keys.includes(key));
    const values = rows.some((row) => !isRecord(row));
    const lines = [['(index)', ...keys, ...(values ? ['Values'] : [])].join('\t')];
    rows.forEach((row, i) => {
      const cells = keys.map((key) => (isRecord(row) && row[key] !== undefined ? show(row[key]) : ''));
      if (values) cells.push(isRecord(row) ? '' : show(row));
      lines.push([indices[i], ...cells].join('\t'));
    });
    write(INFO, lines.join('\n'));
  }

  const console = {
    log: logAt(INFO),
    info: logAt(INFO),
    warn: logAt(WARN),
    error: logAt(ERROR),
    debug: logAt(DEBUG),
    trace: logAt(DEBUG),
    dir: (value) => write(INFO, show(value)),
    dirxml: logAt(INFO),
    table,
    assert(condition, ...data) {
      if (!condition) write(ERROR, data.length > 0 ? 'Assertion failed: ' + join(data) : 'Assertion failed');
    },
    count(label = 'default') {
      const name = String(label);
      counts.set(name, (counts.get(name) || 0) + 1);
      write(INFO, name + ': ' + counts.get(name));
    },
    countReset(label = 'default') {
      const name = String(label);
      if (!counts.has(name)) return write(WARN, "Count for '" + name + "' does not exist");
      counts.set(name, 0);
    },
    time(label = 'default') {
      const name = String(label);
      if (timers.has(name)) return write(WARN, "Timer '" + name + "' already exists");
      timers.set(name, now());
    },
    timeLog(label = 'default', ...data) {
      const name = String(label);
      if (!timers.has(name)) return write(WARN, "Timer '" + name + "' does not exist");
      write(INFO, elapsed(name) + (data.length > 0 ? ' ' + join(data) : ''));
    },
    timeEnd(label = 'default') {
      const name = String(label);
      if (!timers.has(name)) return write(WARN, "Timer '" + name + "' does not exist");
      write(INFO, elapsed(name));
      timers.delete(name);
    },
    group(...label) {
      if (label.length > 0) write(INFO, join(label));
      indent += '  ';
    },
    groupCollapsed(...label) {
      console.group(...label);
    },
    groupEnd() {
      indent = indent.slice(2);
    },
  };
  Object.defineProperty(g, 'console', { value: console, writable: true, configurable: true, enumerable: false });
})(globalThis);
