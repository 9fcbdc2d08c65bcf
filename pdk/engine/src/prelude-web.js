// Small web globals hooks reach for: atob/btoa, structuredClone, self.
(function (g) {
  'use strict';
  const hb = g.__hb;
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  const domError = (name, message) => new hb.DOMException(message, name);

  define('btoa', function btoa(data) {
    const text = String(data);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0xff) throw domError('InvalidCharacterError', 'btoa: the string contains a character outside Latin-1 (at index ' + i + ')');
      bytes[i] = code;
    }
    return hb.base64Encode(bytes.buffer, 0, bytes.length);
  });

  define('atob', function atob(data) {
    const text = String(data).replace(/[\t\n\f\r ]/g, '');
    if (/[^A-Za-z0-9+/=]/.test(text) || text.length % 4 === 1 || /=[^=]|={3}$/.test(text)) {
      throw domError('InvalidCharacterError', 'atob: the string is not valid base64');
    }
    const bytes = new Uint8Array(hb.base64Decode(text));
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return out;
  });

  // Plain data, Date, RegExp, Map, Set, ArrayBuffer and typed arrays, with shared and cyclic references kept.
  define('structuredClone', function structuredClone(value) {
    const seen = new Map();
    const clone = (v) => {
      if (typeof v === 'function' || typeof v === 'symbol') throw domError('DataCloneError', 'structuredClone: a ' + typeof v + ' cannot be cloned');
      if (typeof v !== 'object' || v === null) return v;
      if (seen.has(v)) return seen.get(v);
      let out;
      if (Array.isArray(v)) {
        out = new Array(v.length);
        seen.set(v, out);
        for (let i = 0; i < v.length; i++) if (i in v) out[i] = clone(v[i]);
        return out;
      }
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (ArrayBuffer.isView(v)) out = new v.constructor(clone(v.buffer), v.byteOffset, v instanceof DataView ? v.byteLength : v.length);
      else if (v instanceof Map) {
        out = new Map();
        seen.set(v, out);
        v.forEach((val, key) => out.set(clone(key), clone(val)));
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        seen.set(v, out);
        v.forEach((val) => out.add(clone(val)));
        return out;
      } else if (v instanceof Error) {
        out = new Error(v.message);
        out.name = v.name;
        if (typeof v.stack === 'string') out.stack = v.stack;
      } else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
      else {
        out = {};
        seen.set(v, out);
        for (const key of Object.keys(v)) out[key] = clone(v[key]);
        return out;
      }
      seen.set(v, out);
      return out;
    };
    return clone(value);
  });

  define('self', g);
})(globalThis);
