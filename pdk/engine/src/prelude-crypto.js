// crypto.getRandomValues / randomUUID from WASI randomness (random.c: the
// host's node:crypto, never Math.random's generator) and crypto.subtle.digest
// (sha.c). In top-level code, which runs at build time, the random ones throw:
// a value drawn there would be the same in every instance.
(function (g) {
  'use strict';
  const hb = g.__hb;
  const DOMException = hb.DOMException;
  const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const ALGORITHMS = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'];

  function getRandomValues(array) {
    if (!INTEGER_ARRAYS.some((type) => array instanceof type)) {
      throw new DOMException('crypto.getRandomValues: the argument must be an integer typed array', 'TypeMismatchError');
    }
    if (array.byteLength > 65536) {
      throw new DOMException('crypto.getRandomValues: ' + array.byteLength + ' bytes asked; at most 65536 per call', 'QuotaExceededError');
    }
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(new Uint8Array(hb.randomBytes(array.byteLength)));
    return array;
  }

  function randomUUID() {
    const b = new Uint8Array(hb.randomBytes(16));
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx
    let hex = '';
    for (let i = 0; i < 16; i++) hex += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  }

  // Throws for an unknown algorithm (as js-pdk does, before any promise); the digest itself is a settled promise.
  function digest(algorithm, data) {
    const name = String(typeof algorithm === 'object' && algorithm !== null ? algorithm.name : algorithm).toUpperCase();
    if (!ALGORITHMS.includes(name)) {
      throw new DOMException('crypto.subtle.digest: unsupported algorithm "' + String(typeof algorithm === 'object' && algorithm !== null ? algorithm.name : algorithm) + '" (supported: ' + ALGORITHMS.join(', ') + ')', 'NotSupportedError');
    }
    let bytes;
    if (data instanceof ArrayBuffer) bytes = [data, 0, data.byteLength];
    else if (ArrayBuffer.isView(data)) bytes = [data.buffer, data.byteOffset, data.byteLength];
    else throw new TypeError('crypto.subtle.digest: the data must be an ArrayBuffer or a typed array');
    return Promise.resolve(hb.digest(name, bytes[0], bytes[1], bytes[2]));
  }

  const subtle = Object.freeze({ digest });
  Object.defineProperty(g, 'crypto', {
    value: Object.freeze({ getRandomValues, randomUUID, subtle }),
    writable: true,
    configurable: true,
    enumerable: false,
  });
})(globalThis);
