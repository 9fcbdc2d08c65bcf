// fetch, Headers, Request and Response over the same host path as
// Http.request (prelude-host.js): the same allowedHosts grant and caps, and a
// refusal rejects with the message Http.request throws. The request runs when
// fetch is called and its promise is already settled, so it settles inside
// the call. Redirects are never followed: a 3xx is the response (with
// `redirect: 'error'` it rejects). Bodies are whole byte strings: no streams,
// Blob or FormData.
(function (g) {
  'use strict';
  const hb = g.__hb;
  const utf8 = new TextEncoder();
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  const REASONS = {
    200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 206: 'Partial Content', 301: 'Moved Permanently', 302: 'Found',
    303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized',
    403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
    413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests',
    500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  function headerName(name, what) {
    const text = String(name);
    if (!TOKEN.test(text)) throw new TypeError(what + ': "' + text + '" is not a valid header name');
    return text.toLowerCase();
  }
  const headerValue = (value) => String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');

  // Names lower-cased, values of a repeated name joined with ", ", iterated sorted by name.
  // keys(), values() and entries() are arrays (iterable, and with a length, as js-pdk's are).
  class Headers {
    constructor(init) {
      this._map = new Map();
      if (init === undefined || init === null) return;
      if (init instanceof Headers) init.forEach((value, name) => this.append(name, value));
      else if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const [name, value, extra] = Array.from(pair);
          if (value === undefined || extra !== undefined) throw new TypeError('Headers: each pair must be [name, value]');
          this.append(name, value);
        }
      } else if (typeof init === 'object') for (const name of Object.keys(init)) this.append(name, init[name]);
      else throw new TypeError('Headers: expected an object, an array of pairs or Headers');
    }
    append(name, value) {
      const key = headerName(name, 'Headers.append');
      const v = headerValue(value);
      this._map.set(key, this._map.has(key) ? this._map.get(key) + ', ' + v : v);
    }
    set(name, value) {
      this._map.set(headerName(name, 'Headers.set'), headerValue(value));
    }
    get(name) {
      const v = this._map.get(headerName(name, 'Headers.get'));
      return v === undefined ? null : v;
    }
    has(name) {
      return this._map.has(headerName(name, 'Headers.has'));
    }
    delete(name) {
      this._map.delete(headerName(name, 'Headers.delete'));
    }
    entries() {
      return Array.from(this._map.entries()).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    keys() {
      return this.entries().map((e) => e[0]);
    }
    values() {
      return this.entries().map((e) => e[1]);
    }
    forEach(callback, thisArg) {
      for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
    }
    [Symbol.iterator]() {
      return this.entries()[Symbol.iterator]();
    }
  }

  // A body init as bytes (or null), and the content-type it implies.
  function bodyOf(body, what) {
    if (body === undefined || body === null) return [null, null];
    if (typeof body === 'string') return [utf8.encode(body), 'text/plain;charset=UTF-8'];
    if (body instanceof ArrayBuffer) return [new Uint8Array(body.slice(0)), null];
    if (ArrayBuffer.isView(body)) return [new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)), null];
    if (typeof g.URLSearchParams === 'function' && body instanceof g.URLSearchParams) return [utf8.encode(body.toString()), 'application/x-www-form-urlencoded;charset=UTF-8'];
    throw new TypeError(what + ': a body must be a string, an ArrayBuffer, a typed array or URLSearchParams (no streams, Blob or FormData)');
  }

  // The body mixin: read once, as text, JSON or bytes. The body is whole already, so each promise is
  // settled when returned: a .then on it runs one job later, as js-pdk's do.
  class Body {
    get bodyUsed() {
      return this._used;
    }
    _read(what, convert) {
      if (this._used) return Promise.reject(new TypeError(what + ': the body has already been read'));
      this._used = true;
      try {
        return Promise.resolve(convert(this._bytes === null ? new Uint8Array(0) : this._bytes));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    text() {
      return this._read('text()', (bytes) => new TextDecoder().decode(bytes));
    }
    json() {
      return this._read('json()', (bytes) => JSON.parse(new TextDecoder().decode(bytes)));
    }
    arrayBuffer() {
      return this._read('arrayBuffer()', (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    }
    bytes() {
      return this._read('bytes()', (bytes) => new Uint8Array(bytes));
    }
  }
  function initBody(target, body, headers, what) {
    const [bytes, type] = bodyOf(body, what);
    target._bytes = bytes;
    target._used = false;
    if (type !== null && !headers.has('content-type')) headers.set('content-type', type);
  }

  class Request extends Body {
    constructor(input, init = {}) {
      super();
      const from = input instanceof Request ? input : null;
      const options = init === null || init === undefined ? {} : init;
      this.url = from ? from.url : String(input);
      const method = options.method !== undefined ? String(options.method) : from ? from.method : 'GET';
      this.method = /^(get|head|post|put|delete|options|patch)$/i.test(method) ? method.toUpperCase() : method;
      this.headers = new Headers(options.headers !== undefined ? options.headers : from ? from.headers : undefined);
      this.redirect = options.redirect !== undefined ? String(options.redirect) : from ? from.redirect : 'follow';
      const body = options.body !== undefined ? options.body : from ? from._bytes : null;
      if (body !== null && body !== undefined && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request: a ' + this.method + ' request cannot have a body');
      initBody(this, body, this.headers, 'Request');
    }
    clone() {
      if (this._used) throw new TypeError('Request.clone: the body has already been read');
      return new Request(this);
    }
  }

  class Response extends Body {
    constructor(body = null, init = {}) {
      super();
      const options = init === null || init === undefined ? {} : init;
      const status = options.status === undefined ? 200 : Number(options.status);
      if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError('Response: status ' + options.status + ' is not in 200-599');
      this._init(status, options.statusText === undefined ? '' : String(options.statusText), new Headers(options.headers), '');
      initBody(this, body, this.headers, 'Response');
    }
    _init(status, statusText, headers, url) {
      this.status = status;
      this.statusText = statusText;
      this.headers = headers;
      this.url = url;
      this.redirected = false;
      this.type = url === '' ? 'default' : 'basic';
    }
    get ok() {
      return this.status >= 200 && this.status <= 299;
    }
    clone() {
      if (this._used) throw new TypeError('Response.clone: the body has already been read');
      return received(this.status, this.statusText, new Headers(this.headers), this.url, this._bytes);
    }
    static json(data, init = {}) {
      const headers = new Headers(init && init.headers);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), { ...init, headers });
    }
  }

  // A response as the host answered it (any status, the URL it came from).
  function received(status, statusText, headers, url, bytes) {
    const res = Object.create(Response.prototype);
    res._init(status, statusText, headers, url);
    res._bytes = bytes;
    res._used = false;
    return res;
  }

  function fetch(input, init) {
    return new Promise((resolve) => {
      const req = new Request(input, init);
      const headers = {};
      req.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const res = hb.httpCall(req.url, req.method, headers, req._bytes);
      if (req.redirect === 'error' && res.status >= 300 && res.status < 400) {
        throw new TypeError('fetch to ' + req.url + ' failed: the server redirected (status ' + res.status + ') and the request says redirect: "error"');
      }
      resolve(received(res.status, REASONS[res.status] || '', new Headers(res.headers || {}), req.url, res.body === null ? null : new Uint8Array(res.body)));
    });
  }

  define('Headers', Headers);
  define('Request', Request);
  define('Response', Response);
  define('fetch', fetch);
})(globalThis);
