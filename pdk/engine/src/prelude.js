// The js-pdk globals over the engine's natives (globalThis.__hb, see natives.c).
// Runs once at pre-initialization, before the hook's bundle.
(function (g) {
  'use strict';
  const hb = g.__hb; // deleted after the last prelude file (pdk/engine/build.ts)

  // (ArrayBuffer, byteOffset, byteLength) of any BufferSource.
  function parts(value, what) {
    if (value instanceof ArrayBuffer) return [value, 0, value.byteLength];
    if (ArrayBuffer.isView(value)) return [value.buffer, value.byteOffset, value.byteLength];
    throw new TypeError(what + ': expected an ArrayBuffer or a typed array');
  }
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  define('Host', {
    inputBytes: () => hb.inputBytes(),
    inputString: () => hb.inputString(),
    outputBytes(output) {
      const [buf, off, len] = parts(output, 'Host.outputBytes');
      return hb.output(buf, off, len);
    },
    outputString: (output) => hb.outputString(String(output)),
    arrayBufferToBase64(input) {
      const [buf, off, len] = parts(input, 'Host.arrayBufferToBase64');
      return hb.base64Encode(buf, off, len);
    },
    base64ToArrayBuffer: (input) => hb.base64Decode(String(input)),
  });

  // An instance's config never changes (Extism sets it when the plugin is created), so
  // each key is read from the host once per instance: a host call per get cost ~3 µs.
  // Empty in the snapshot: Config.get throws in top-level code, which runs at build time.
  const configSeen = new Map();
  define('Config', {
    get(key) {
      const name = String(key);
      let value = configSeen.get(name);
      if (value === undefined) {
        value = hb.configGet(name);
        configSeen.set(name, value);
      }
      return value;
    },
  });

  define('Var', {
    getBytes: (name) => hb.varGet(String(name)),
    getString: (name) => hb.varGetString(String(name)),
    set(name, value) {
      if (value === null || value === undefined) return hb.varDelete(String(name));
      if (typeof value === 'string') return hb.varSetString(String(name), value);
      const [buf, off, len] = parts(value, 'Var.set');
      return hb.varSet(String(name), buf, off, len);
    },
  });

  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }
    encode(input = '') {
      return new Uint8Array(hb.utf8Encode(String(input)));
    }
    encodeInto(source, destination) {
      const bytes = this.encode(source);
      if (bytes.length <= destination.length) {
        destination.set(bytes);
        return { read: String(source).length, written: bytes.length };
      }
      // Only whole code points fit: shrink the source until its encoding does.
      let text = String(source);
      let encoded = bytes;
      while (encoded.length > destination.length) {
        const cut = text.length - (text.charCodeAt(text.length - 1) >= 0xdc00 && text.charCodeAt(text.length - 1) < 0xe000 ? 2 : 1);
        text = text.slice(0, cut);
        encoded = this.encode(text);
      }
      destination.set(encoded);
      return { read: text.length, written: encoded.length };
    }
  }

  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const name = String(label).trim().toLowerCase();
      if (name !== 'utf-8' && name !== 'utf8' && name !== 'unicode-1-1-utf-8') {
        throw new RangeError('TextDecoder: only utf-8 is supported, got "' + label + '"');
      }
      this.fatal = Boolean(options && options.fatal);
      this.ignoreBOM = Boolean(options && options.ignoreBOM);
    }
    get encoding() {
      return 'utf-8';
    }
    decode(input) {
      if (input === undefined || input === null) return '';
      const [buf, off, len] = parts(input, 'TextDecoder.decode');
      const text = hb.utf8Decode(buf, off, len, this.fatal);
      return !this.ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    }
  }

  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);

  // The legacy codes WebIDL gives DOMException names (0 for the others).
  const DOM_CODES = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10,
    InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14,
    InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
    URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  };
  class DOMException extends Error {
    constructor(message = '', name = 'Error') {
      super(String(message));
      Object.defineProperty(this, 'name', { value: String(name), writable: true, configurable: true, enumerable: false });
    }
    get code() {
      return DOM_CODES[this.name] || 0;
    }
  }
  define('DOMException', DOMException);
  // The later prelude files throw these through `hb`, whatever a hook later does to the global.
  hb.DOMException = DOMException;
})(globalThis);
