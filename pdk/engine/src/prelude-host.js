// js-pdk's Memory, MemoryHandle, Http and host functions over natives-host.c.
// Runs at pre-initialization after prelude.js; the natives refuse to run in
// top-level code (there is no Extism host at build time).
(function (g) {
  'use strict';
  const hb = g.__hb;
  const utf8 = new TextEncoder();
  const text = new TextDecoder();

  function bytesOf(value, what) {
    if (typeof value === 'string') return utf8.encode(value);
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    throw new TypeError(what + ': expected a string, an ArrayBuffer or a typed array');
  }
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  // A block of Extism memory: what host functions take and return as I64 offsets.
  class MemoryHandle {
    constructor(offset, len) {
      this.offset = offset;
      this.len = len;
    }
    readBytes() {
      return hb.memLoad(this.offset);
    }
    readString() {
      return text.decode(this.readBytes());
    }
    readJsonObject() {
      return JSON.parse(this.readString());
    }
    readUInt32() {
      return new DataView(this.readBytes()).getUint32(0, true);
    }
    readUInt64() {
      return new DataView(this.readBytes()).getBigUint64(0, true);
    }
    readFloat32() {
      return new DataView(this.readBytes()).getFloat32(0, true);
    }
    readFloat64() {
      return new DataView(this.readBytes()).getFloat64(0, true);
    }
    // js-pdk's spelling of readFloat64.
    readUFloat64() {
      return this.readFloat64();
    }
    free() {
      hb.memFree(this.offset);
    }
  }

  function fromBytes(bytes) {
    const offset = hb.memAlloc(bytes.byteLength);
    hb.memStore(offset, bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return new MemoryHandle(offset, bytes.byteLength);
  }
  function fromNumber(size, write) {
    const view = new DataView(new ArrayBuffer(size));
    write(view);
    return fromBytes(new Uint8Array(view.buffer));
  }

  define('MemoryHandle', MemoryHandle);
  define('Memory', {
    fromString: (str) => fromBytes(utf8.encode(String(str))),
    fromBuffer: (bytes) => fromBytes(bytesOf(bytes, 'Memory.fromBuffer')),
    fromJsonObject: (obj) => fromBytes(utf8.encode(JSON.stringify(obj))),
    allocUInt32: (i) => fromNumber(4, (v) => v.setUint32(0, i, true)),
    allocUInt64: (i) => fromNumber(8, (v) => v.setBigUint64(0, BigInt(i), true)),
    allocFloat32: (i) => fromNumber(4, (v) => v.setFloat32(0, i, true)),
    allocFloat64: (i) => fromNumber(8, (v) => v.setFloat64(0, i, true)),
    find: (offset) => new MemoryHandle(offset, hb.memLength(offset)),
  });

  // One request through the host: { status, body: ArrayBuffer | null, headers: object | null }. Also fetch's
  // (prelude-http.js), so both answer a refusal with the same message.
  function httpCall(url, method, headers, body) {
    const request = JSON.stringify({ url, method, headers });
    const data = body === undefined || body === null ? undefined : bytesOf(body, 'Http.request body');
    const [status, responseBody, responseHeaders] =
      data === undefined ? hb.httpRequest(request, undefined, 0, 0) : hb.httpRequest(request, data.buffer, data.byteOffset, data.byteLength);
    // Status 0: the host refused the request or it failed; hookbox's runner puts the reason in the body.
    if (status === 0) throw new Error('Http.request to ' + url + ' failed: ' + ((responseBody !== null && text.decode(responseBody)) || 'the host gave no response'));
    return { status, body: responseBody, headers: responseHeaders === null ? null : JSON.parse(responseHeaders) };
  }
  hb.httpCall = httpCall;

  define('Http', {
    request(req, body) {
      if (typeof req !== 'object' || req === null || typeof req.url !== 'string') {
        throw new TypeError('Http.request: expected a request object with a string `url`');
      }
      const res = httpCall(req.url, req.method === undefined ? 'GET' : String(req.method).toUpperCase(), req.headers || {}, body);
      const response = { status: res.status, body: res.body === null ? '' : text.decode(res.body) };
      if (res.headers !== null) response.headers = res.headers;
      return response;
    },
  });

  // Host functions the plugin declared (`declare module 'main'`), in declaration order; the compiler
  // defines the list (name, wasm signature) when it rewrites the dispatch.
  function declared() {
    const list = g.__hookbox_host_functions;
    return Array.isArray(list) ? list : [];
  }
  function invoke(index, args) {
    const fn = declared()[index];
    if (fn === undefined) throw new ReferenceError('Host.invokeFunc: no host function ' + index + ' is declared by this plugin');
    return hb.hostCall(index, fn.signature, args);
  }
  Object.defineProperty(g.Host, 'getFunctions', {
    value() {
      const out = {};
      declared().forEach((fn, index) => {
        out[fn.name] = (...args) => invoke(index, args);
      });
      return out;
    },
    writable: true,
    configurable: true,
  });
  g.Host.invokeFunc = (id, ...args) => invoke(id, args);
  g.Host.invokeFunc0 = (id, ...args) => {
    invoke(id, args);
  };
})(globalThis);
