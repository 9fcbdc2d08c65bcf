// URL and URLSearchParams for hooks (js-pdk ships them through core-js).
// Written from the WHATWG URL standard for what hooks do with URLs: parse
// absolute and relative http(s)/ws(s)/ftp/file URLs and opaque ones
// (mailto:, data:), normalize paths, percent-encode, read and edit the query.
// Not covered: IDNA/punycode hosts (non-ASCII hosts are refused) and IPv4
// number forms other than dotted decimal.
(function (g) {
  'use strict';
  const SPECIAL = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };
  const utf8 = new TextEncoder();
  const hex = (b) => '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();

  // Percent-encode sets, as predicates on a code unit's character.
  const C0 = (c) => c < ' ' || c > '~';
  const FRAGMENT = (c) => C0(c) || ' "<>`'.indexOf(c) >= 0;
  const QUERY = (c) => C0(c) || ' "#<>'.indexOf(c) >= 0;
  const SPECIAL_QUERY = (c) => QUERY(c) || c === "'";
  const PATH = (c) => QUERY(c) || '?`{}^'.indexOf(c) >= 0;
  const USERINFO = (c) => PATH(c) || '/:;=@[\\]|'.indexOf(c) >= 0;
  const FORM = (c) => !/[A-Za-z0-9*\-._]/.test(c);

  function encode(text, set, spaceAsPlus) {
    let out = '';
    for (const ch of text) {
      if (spaceAsPlus && ch === ' ') out += '+';
      else if (!set(ch)) out += ch;
      else for (const b of utf8.encode(ch)) out += hex(b);
    }
    return out;
  }
  function decode(text) {
    const bytes = [];
    const raw = utf8.encode(text);
    for (let i = 0; i < raw.length; i++) {
      const h = raw[i] === 0x25 && i + 2 < raw.length ? String.fromCharCode(raw[i + 1], raw[i + 2]) : '';
      if (/^[0-9A-Fa-f]{2}$/.test(h)) {
        bytes.push(parseInt(h, 16));
        i += 2;
      } else bytes.push(raw[i]);
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }

  const invalid = (input) => new TypeError('Invalid URL: ' + String(input));

  function parseHost(text, special, input) {
    if (text.startsWith('[')) {
      if (!/^\[[0-9A-Fa-f:.]+\]$/.test(text)) throw invalid(input);
      return text.toLowerCase();
    }
    if (!special) {
      if (/[\s#/<>?@[\\\]^|]/.test(text)) throw invalid(input);
      return encode(text, C0);
    }
    const host = decode(text).toLowerCase();
    if (host === '' || /[\u0000-\u0020#%/:<>?@[\\\]^|\u007f-\uffff]/.test(host)) throw invalid(input);
    return host;
  }

  function normalizePath(segments, special) {
    const out = [];
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const last = i === segments.length - 1;
      const lower = seg.toLowerCase();
      if (seg === '..' || lower === '.%2e' || lower === '%2e.' || lower === '%2e%2e') {
        out.pop();
        if (last) out.push('');
      } else if (seg === '.' || lower === '%2e') {
        if (last) out.push('');
      } else out.push(encode(seg, PATH));
    }
    return special && out.length === 0 ? [''] : out;
  }

  // Parses `input` against an optional parsed base; returns the URL's record.
  function parse(input, base) {
    let rest = String(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
    const url = { protocol: '', username: '', password: '', hostname: '', port: '', path: [], opaque: null, query: null, fragment: null };
    const hashAt = rest.indexOf('#');
    if (hashAt >= 0) {
      url.fragment = encode(rest.slice(hashAt + 1), FRAGMENT);
      rest = rest.slice(0, hashAt);
    }
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
    if (scheme) {
      url.protocol = scheme[1].toLowerCase() + ':';
      rest = rest.slice(scheme[0].length);
    } else {
      if (!base) throw invalid(input);
      url.protocol = base.protocol;
    }
    const special = Object.prototype.hasOwnProperty.call(SPECIAL, url.protocol);
    if (special) rest = rest.replace(/\\/g, '/');
    const queryAt = rest.indexOf('?');
    let query = null;
    if (queryAt >= 0) {
      query = rest.slice(queryAt + 1);
      rest = rest.slice(0, queryAt);
    }
    const sameScheme = base && base.protocol === url.protocol;
    if (rest.startsWith('//') || (special && scheme && !sameScheme)) {
      // An authority follows (special schemes tolerate missing or extra slashes).
      // Special schemes tolerate missing or extra slashes; file: keeps the one that starts its path.
      if (url.protocol === 'file:') rest = rest.startsWith('//') ? rest.slice(2) : rest;
      else rest = special ? rest.replace(/^\/*/, '') : rest.slice(2);
      const end = rest.search(/\//);
      const authority = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? '' : rest.slice(end);
      const at = authority.lastIndexOf('@');
      if (at >= 0) {
        const info = authority.slice(0, at);
        const colon = info.indexOf(':');
        url.username = encode(colon < 0 ? info : info.slice(0, colon), USERINFO);
        url.password = colon < 0 ? '' : encode(info.slice(colon + 1), USERINFO);
      }
      const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
      const portMatch = /:(\d*)$/.exec(hostPort.startsWith('[') ? hostPort.slice(hostPort.indexOf(']')) : hostPort);
      const hostText = portMatch ? hostPort.slice(0, hostPort.length - portMatch[0].length) : hostPort;
      if (/:[^\]]*$/.test(hostText.startsWith('[') ? hostText.slice(hostText.indexOf(']')) : hostText)) throw invalid(input);
      if (portMatch && portMatch[1] !== '') {
        const port = Number(portMatch[1]);
        if (port > 65535) throw invalid(input);
        url.port = String(port) === SPECIAL[url.protocol] ? '' : String(port);
      }
      if (hostText === '' && special && url.protocol !== 'file:') throw invalid(input);
      url.hostname = hostText === '' ? '' : parseHost(hostText, special, input);
      url.path = normalizePath(rest === '' ? [] : rest.slice(1).split('/'), special);
    } else if (!special && scheme && !rest.startsWith('/')) {
      url.opaque = encode(rest, C0); // mailto:a@b, data:text/plain,hi
    } else {
      if (!base || (scheme && !sameScheme)) throw invalid(input);
      if (base.opaque !== null && rest !== '') throw invalid(input);
      url.username = base.username;
      url.password = base.password;
      url.hostname = base.hostname;
      url.port = base.port;
      url.opaque = base.opaque;
      if (rest === '') {
        url.path = base.path.slice();
        if (query === null) url.query = base.query; // "#x" and "" keep the base's query
      } else if (rest.startsWith('/')) {
        url.path = normalizePath(rest.slice(1).split('/'), special);
      } else {
        url.path = normalizePath(base.path.slice(0, -1).concat(rest.split('/')), special);
      }
    }
    if (query !== null) url.query = encode(query, special ? SPECIAL_QUERY : QUERY);
    return url;
  }

  function serialize(u) {
    const special = Object.prototype.hasOwnProperty.call(SPECIAL, u.protocol);
    let out = u.protocol;
    if (u.opaque !== null) out += u.opaque;
    else {
      if (special || u.hostname !== '') {
        out += '//';
        if (u.username !== '' || u.password !== '') out += u.username + (u.password !== '' ? ':' + u.password : '') + '@';
        out += u.hostname + (u.port !== '' ? ':' + u.port : '');
      }
      out += '/' + u.path.join('/');
    }
    if (u.query !== null) out += '?' + u.query;
    if (u.fragment !== null) out += '#' + u.fragment;
    return out;
  }

  const records = new WeakMap();
  const paramsOwner = new WeakMap();

  class URLSearchParams {
    constructor(init) {
      this._list = [];
      if (init instanceof URLSearchParams) this._list = init._list.map((p) => p.slice());
      else if (typeof init === 'object' && init !== null && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = Array.from(pair);
          if (p.length !== 2) throw new TypeError('URLSearchParams: each pair needs exactly two items');
          this._list.push([String(p[0]), String(p[1])]);
        }
      } else if (typeof init === 'object' && init !== null) {
        for (const key of Object.keys(init)) this._list.push([key, String(init[key])]);
      } else if (init !== undefined) this._parse(String(init));
    }
    _parse(text) {
      this._list = [];
      for (const part of (text.startsWith('?') ? text.slice(1) : text).split('&')) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        const name = eq < 0 ? part : part.slice(0, eq);
        const value = eq < 0 ? '' : part.slice(eq + 1);
        this._list.push([decode(name.replace(/\+/g, ' ')), decode(value.replace(/\+/g, ' '))]);
      }
    }
    _changed() {
      const url = paramsOwner.get(this);
      if (url) {
        const text = this.toString();
        records.get(url).query = text === '' ? null : text;
      }
    }
    get size() {
      return this._list.length;
    }
    append(name, value) {
      this._list.push([String(name), String(value)]);
      this._changed();
    }
    delete(name, value) {
      this._list = this._list.filter((p) => !(p[0] === String(name) && (value === undefined || p[1] === String(value))));
      this._changed();
    }
    get(name) {
      const found = this._list.find((p) => p[0] === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      return this._list.filter((p) => p[0] === String(name)).map((p) => p[1]);
    }
    has(name, value) {
      return this._list.some((p) => p[0] === String(name) && (value === undefined || p[1] === String(value)));
    }
    set(name, value) {
      const key = String(name);
      const at = this._list.findIndex((p) => p[0] === key);
      if (at < 0) this._list.push([key, String(value)]);
      else {
        this._list[at][1] = String(value);
        this._list = this._list.filter((p, i) => i <= at || p[0] !== key);
      }
      this._changed();
    }
    sort() {
      this._list = this._list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1])).map((x) => x[0]);
      this._changed();
    }
    forEach(callback, thisArg) {
      for (const [name, value] of this._list) callback.call(thisArg, value, name, this);
    }
    *entries() {
      for (const p of this._list) yield [p[0], p[1]];
    }
    *keys() {
      for (const p of this._list) yield p[0];
    }
    *values() {
      for (const p of this._list) yield p[1];
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this._list.map((p) => encode(p[0], FORM, true) + '=' + encode(p[1], FORM, true)).join('&');
    }
  }

  const isSpecial = (protocol) => Object.prototype.hasOwnProperty.call(SPECIAL, protocol);

  // The host a `hostname`/`host` setter gives `u`, up to the first `/`, `?` or `#` (and `\` for
  // special schemes), with the text after a `:` outside brackets as `port`; undefined when refused.
  function setterHost(u, value) {
    if (u.opaque !== null) return undefined;
    const special = isSpecial(u.protocol);
    const text = value.split(special ? /[/?#\\]/ : /[/?#]/)[0];
    const close = text.startsWith('[') ? text.indexOf(']') : -1;
    const colon = text.indexOf(':', close < 0 ? 0 : close);
    const hostText = colon < 0 ? text : text.slice(0, colon);
    if (hostText === '' ? special && u.protocol !== 'file:' : false) return undefined;
    if (hostText === '' && (u.username !== '' || u.password !== '' || u.port !== '')) return undefined;
    try {
      return { hostname: hostText === '' ? '' : parseHost(hostText, special, hostText), port: colon < 0 ? undefined : text.slice(colon + 1) };
    } catch (e) {
      return undefined;
    }
  }

  // The port a `port` setter gives `u` (its leading digits; '' clears it); undefined when refused.
  function setterPort(u, value) {
    if (u.opaque !== null || u.hostname === '' || u.protocol === 'file:') return undefined;
    if (value === '') return '';
    const digits = /^\d*/.exec(value)[0];
    if (digits === '' || Number(digits) > 65535) return undefined;
    const port = String(Number(digits));
    return port === SPECIAL[u.protocol] ? '' : port;
  }

  class URL {
    constructor(input, base) {
      const baseRecord = base === undefined ? undefined : parse(base instanceof URL ? base.href : base);
      records.set(this, parse(input instanceof URL ? input.href : input, baseRecord));
      const params = new URLSearchParams(records.get(this).query || '');
      paramsOwner.set(params, this);
      Object.defineProperty(this, '_params', { value: params });
    }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch (e) {
        return false;
      }
    }
    _set(mutate) {
      const u = records.get(this);
      mutate(u);
      this._params._parse(u.query || '');
    }
    get href() {
      return serialize(records.get(this));
    }
    set href(value) {
      records.set(this, parse(value));
      this._params._parse(records.get(this).query || '');
    }
    get protocol() {
      return records.get(this).protocol;
    }
    // The setters below leave the URL as it was for a value the standard's setter would refuse.
    set protocol(v) {
      const u = records.get(this);
      const scheme = String(v).split(':')[0].toLowerCase() + ':';
      if (!/^[a-z][a-z0-9+.-]*:$/.test(scheme) || isSpecial(scheme) !== isSpecial(u.protocol)) return;
      if (scheme === 'file:' && (u.username !== '' || u.password !== '' || u.port !== '')) return;
      if (u.protocol === 'file:' && u.hostname === '') return;
      this._set((r) => {
        r.protocol = scheme;
        if (r.port === SPECIAL[scheme]) r.port = '';
      });
    }
    get username() {
      return records.get(this).username;
    }
    set username(v) {
      this._set((u) => (u.username = encode(String(v), USERINFO)));
    }
    get password() {
      return records.get(this).password;
    }
    set password(v) {
      this._set((u) => (u.password = encode(String(v), USERINFO)));
    }
    get hostname() {
      return records.get(this).hostname;
    }
    set hostname(v) {
      const host = setterHost(records.get(this), String(v));
      if (host !== undefined && !host.port) this._set((r) => (r.hostname = host.hostname));
    }
    get port() {
      return records.get(this).port;
    }
    set port(v) {
      const u = records.get(this);
      const port = setterPort(u, String(v));
      if (port !== undefined) this._set((r) => (r.port = port));
    }
    get host() {
      const u = records.get(this);
      return u.hostname + (u.port !== '' ? ':' + u.port : '');
    }
    set host(v) {
      const u = records.get(this);
      const host = setterHost(u, String(v));
      if (host === undefined) return;
      const port = host.port === undefined ? u.port : setterPort(u, host.port);
      this._set((r) => {
        r.hostname = host.hostname;
        if (port !== undefined) r.port = port;
      });
    }
    get origin() {
      const u = records.get(this);
      return Object.prototype.hasOwnProperty.call(SPECIAL, u.protocol) && u.protocol !== 'file:' ? u.protocol + '//' + this.host : 'null';
    }
    get pathname() {
      const u = records.get(this);
      return u.opaque !== null ? u.opaque : '/' + u.path.join('/');
    }
    set pathname(v) {
      this._set((u) => {
        if (u.opaque === null) u.path = normalizePath(String(v).replace(/^\//, '').split('/'), Object.prototype.hasOwnProperty.call(SPECIAL, u.protocol));
      });
    }
    get search() {
      const q = records.get(this).query;
      return q === null || q === '' ? '' : '?' + q;
    }
    set search(v) {
      const text = String(v).replace(/^\?/, '');
      this._set((u) => (u.query = text === '' ? null : encode(text, Object.prototype.hasOwnProperty.call(SPECIAL, u.protocol) ? SPECIAL_QUERY : QUERY)));
    }
    get searchParams() {
      return this._params;
    }
    get hash() {
      const f = records.get(this).fragment;
      return f === null || f === '' ? '' : '#' + f;
    }
    set hash(v) {
      const text = String(v).replace(/^#/, '');
      this._set((u) => (u.fragment = text === '' ? null : encode(text, FRAGMENT)));
    }
    toString() {
      return this.href;
    }
    toJSON() {
      return this.href;
    }
  }

  Object.defineProperty(g, 'URL', { value: URL, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(g, 'URLSearchParams', { value: URLSearchParams, writable: true, configurable: true, enumerable: false });
})(globalThis);
