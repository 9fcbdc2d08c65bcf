/**
 * Every branch of the adapter's error → fault mapping (`faultFromError`,
 * extism-adapter.ts), with the exact kind, message and whether the instance
 * is discarded. `runner-adapter.spec.ts` reaches each kind through a real
 * plugin; this pins the message texts and the edges of each test.
 */
import { describe, expect, it } from 'vitest';
import { faultFromError } from '../../host/runner/extism-adapter.ts';
import { HttpDeadlineError } from '../../host/runner/http-calls.ts';
import { WasiExit } from '../../host/runner/wasi/index.ts';
import { wasm } from '../helpers/wasm-js.ts';

const free = { atMemoryCap: false };
const capped = { atMemoryCap: true };

describe('faultFromError', () => {
  it('WASI proc_exit and an HTTP deadline unwind the guest: the instance goes', () => {
    expect(faultFromError(new WasiExit(0), capped)).toEqual({ kind: 'plugin-error', message: 'the hook called proc_exit(0)', discard: true });
    expect(faultFromError(new HttpDeadlineError('no answer within 300 ms'), free)).toEqual({ kind: 'timeout', message: 'no answer within 300 ms', discard: true });
  });

  it("reads the engine's error_set prefixes, trims the rest, and falls back to the kind's name", () => {
    expect(faultFromError(new Error('Plugin-originated error: hookbox-fault:timeout: instruction budget spent '), free)).toEqual({
      kind: 'timeout',
      message: 'instruction budget spent',
      discard: false,
    });
    expect(faultFromError(new Error('Plugin-originated error: hookbox-fault:memory:   '), free)).toEqual({ kind: 'memory', message: 'memory', discard: false });
    expect(faultFromError(new Error('Plugin-originated error: hookbox-fault:timeout:'), free)).toEqual({ kind: 'timeout', message: 'timeout', discard: false });
    expect(faultFromError(new Error('Plugin-originated error: var memory limit exceeded: 5 bytes'), free)).toEqual({
      kind: 'memory',
      message: 'var memory limit exceeded: 5 bytes',
      discard: false,
    });
    // Anything else the plugin set is its own error, kept whole, even with the memory at its cap.
    expect(faultFromError(new Error('Plugin-originated error: bad input; hookbox-fault:memory: no'), capped)).toEqual({
      kind: 'plugin-error',
      message: 'bad input; hookbox-fault:memory: no',
      discard: false,
    });
    // The prefix must open the message.
    expect(faultFromError(new Error('xPlugin-originated error: boom'), free)).toMatchObject({ kind: 'trap', message: 'host function failed: xPlugin-originated error: boom' });
  });

  it('a missing function is missing-export; the pattern is anchored', () => {
    expect(faultFromError(new Error('Plugin error: function "pre_tool" does not exist'), free)).toEqual({
      kind: 'missing-export',
      message: 'Plugin error: function "pre_tool" does not exist',
      discard: false,
    });
    expect(faultFromError(new Error('oops. Plugin error: function "x" does not exist'), free).kind).toBe('trap');
  });

  it('a wasm trap keeps the instance, unless memory was refused during the call', () => {
    const trap = new wasm.RuntimeError('unreachable');
    expect(faultFromError(trap, free)).toEqual({ kind: 'trap', message: 'unreachable', discard: false });
    expect(faultFromError(trap, capped)).toEqual({
      kind: 'memory',
      message: 'refused memory (a memory.grow failed, the memory reached its cap, or an Extism alloc went over its budget), then: unreachable',
      discard: true,
    });
  });

  it('host RangeErrors: stack overflow is a trap, allocation failures are memory, others a failed host function; all discard', () => {
    expect(faultFromError(new RangeError('Maximum call stack size exceeded'), free)).toEqual({
      kind: 'trap',
      message: 'stack overflow: Maximum call stack size exceeded',
      discard: true,
    });
    expect(faultFromError(new RangeError('Array buffer allocation failed'), free)).toEqual({ kind: 'memory', message: 'Array buffer allocation failed', discard: true });
    expect(faultFromError(new RangeError('Invalid array buffer length'), free)).toEqual({ kind: 'memory', message: 'Invalid array buffer length', discard: true });
    expect(faultFromError(new RangeError('offset is out of bounds'), capped)).toEqual({ kind: 'trap', message: 'host function failed: offset is out of bounds', discard: true });
    expect(faultFromError(new TypeError('x is not a function'), free)).toEqual({ kind: 'trap', message: 'host function failed: x is not a function', discard: true });
    // Only a RangeError is read for "call stack" and allocation failures.
    expect(faultFromError(new TypeError('call stack: allocation failed'), free)).toEqual({
      kind: 'trap',
      message: 'host function failed: call stack: allocation failed',
      discard: true,
    });
  });

  it('a thrown non-Error is named as such, with its message, JSON or string form', () => {
    const aborted = (text: string) => ({ kind: 'trap', message: `guest aborted the call with a non-Error: ${text}`, discard: true });
    expect(faultFromError({ message: 'plain object' }, free)).toEqual(aborted('plain object'));
    expect(faultFromError({ code: 7 }, free)).toEqual(aborted('{"code":7}'));
    expect(faultFromError('a string', free)).toEqual(aborted('a string'));
    expect(faultFromError(Symbol('kExitCode'), free)).toEqual(aborted('Symbol(kExitCode)'));
    expect(faultFromError(null, free)).toEqual(aborted('null'));
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(faultFromError(circular, free)).toEqual(aborted('[object Object]'));
    // The SDK's error_set prefix is read from the text, whatever carries it.
    expect(faultFromError({ message: 'Plugin-originated error: boom' }, free)).toEqual({ kind: 'plugin-error', message: 'boom', discard: false });
  });
});
